import { queryOptions, useQuery } from '@tanstack/react-query';
import { Plural, Trans } from '@lingui/react/macro';
import { getSupabase } from '@/lib/auth';

interface CancellationPolicy {
  free_hours: number;
  fee_percent: number;
}

/** The harbour's cancellation policy as the database has it (public.cancellation_policy, readable by everyone). */
export const cancellationPolicyQueryOptions = () =>
  queryOptions({
    queryKey: ['cancellation-policy'] as const,
    queryFn: async (): Promise<CancellationPolicy | null> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('cancellation_policy');
      if (error) throw error;
      return (data as unknown as CancellationPolicy | null) ?? null;
    },
    staleTime: 5 * 60_000,
  });

/**
 * One sentence on cancelling, shown before booking (the booking summary and the prices page;
 * issue 40): free until some hours (or days) before arrival, then a share of the price kept.
 * Self-contained: it reads the policy itself and shows nothing until it has it.
 */
export function CancellationPolicyNote({ className }: { className?: string }) {
  const policy = useQuery(cancellationPolicyQueryOptions());
  if (!policy.data) return null;
  const { free_hours: hours, fee_percent: percent } = policy.data;
  const before =
    hours % 24 === 0 ? <Plural value={hours / 24} one="# Tag" other="# Tage" /> : <Plural value={hours} one="# Stunde" other="# Stunden" />;
  return (
    <p className={className ?? 'text-sm text-slate-700'} data-testid="cancellation-policy">
      {percent === 0 ? (
        <Trans>Stornierung: bis zur Anreise kostenlos.</Trans>
      ) : hours === 0 ? (
        <Trans>Stornierung: bis zur Anreise möglich; der Hafen behält dann {percent} % des Preises.</Trans>
      ) : (
        <Trans>
          Stornierung: bis {before} vor der Anreise kostenlos, danach behält der Hafen {percent} % des Preises.
        </Trans>
      )}
    </p>
  );
}
