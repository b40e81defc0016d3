import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Section } from '@/components/page';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { numberField } from '@/lib/validation';
import { harbourStatusKeys } from '@/lib/harbour-status';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { gaugeThresholdsQueryOptions, saveGaugeThresholds } from '@/features/admin/settings/api/gauge-thresholds';
import { SaveFooter, type SaveState } from '@/components/save-footer';

type Values = { restricted: string; closed: string };

/** Whole cm from 100 to 1500 (the database's gauge_settings checks). */
const levelField = () =>
  numberField({ min: 100, max: 1500, unit: 'cm' }).refine((v) => /^\d+$/.test(v.trim()), {
    error: () => t`Bitte ganze Zentimeter eingeben`,
  });

const thresholdsSchema = () =>
  z.object({ restricted: levelField(), closed: levelField() }).refine((v) => Number(v.restricted) < Number(v.closed), {
    path: ['closed'],
    // The same words as the database's refusal (gauge_thresholds_invalid in staff-messages.ts).
    error: () => t`Die Pegelgrenzen müssen zwischen 1 und 15 m liegen, „eingeschränkt“ unter „gesperrt“.`,
  });

/**
 * The Rhine gauge thresholds (ADR 0053): from which level at the Düsseldorf gauge the harbour is
 * restricted and closed. Saved through set_gauge_thresholds(), which checks and audits again.
 */
export function GaugeThresholdsSection() {
  const { t } = useLingui();
  const { data } = useSuspenseQuery(gaugeThresholdsQueryOptions());
  const queryClient = useQueryClient();
  const [state, setState] = useState<SaveState>();
  const form = useForm<Values>({
    resolver: zodResolver(thresholdsSchema()),
    values: { restricted: String(data?.restricted_from_cm ?? 710), closed: String(data?.closed_from_cm ?? 880) },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setState(undefined);
    try {
      await saveGaugeThresholds({ restricted_from_cm: Number(v.restricted), closed_from_cm: Number(v.closed) });
      setState({ ok: true });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: gaugeThresholdsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: harbourStatusKeys.all }),
      ]);
    } catch (e) {
      setState({ ok: false, message: staffErrorMessage(e) });
    }
  });
  const fields: { name: keyof Values; label: string }[] = [
    { name: 'restricted', label: t`Eingeschränkt ab (cm)` },
    { name: 'closed', label: t`Gesperrt ab (cm)` },
  ];
  return (
    <Section title={t`Rhein / Pegel`} aria-label={t`Rhein / Pegel`}>
      <Form {...form}>
        <form onSubmit={onSubmit} noValidate aria-label={t`Rhein / Pegel`} className="grid max-w-xl gap-4">
          <p className="text-sm text-slate-600">
            <Trans>
              Ab diesen Ständen am Pegel Düsseldorf gilt der Hafen als eingeschränkt befahrbar bzw. gesperrt. Voreingestellt sind die
              Hochwassermarken der Rheinschifffahrtspolizeiverordnung (RheinSchPV § 10.01): Marke I bei 7,10 m, Marke II bei 8,80 m. 100 bis
              1500 cm, „eingeschränkt“ unter „gesperrt“.
            </Trans>
          </p>
          <div className="flex flex-wrap gap-4">
            {fields.map(({ name, label }) => (
              <FormField
                key={name}
                control={form.control}
                name={name}
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>{label}</FormLabel>
                    <FormControl>
                      <Input {...field} inputMode="numeric" autoComplete="off" className="w-32" />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
            ))}
          </div>
          <SaveFooter state={state} submitting={form.formState.isSubmitting}>
            <Trans>Pegelgrenzen speichern</Trans>
          </SaveFooter>
        </form>
      </Form>
    </Section>
  );
}
