import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronRight, LogOut } from 'lucide-react';
import { Page, Prose } from '@/components/page';
import { Button } from '@/components/ui/button';
import { getSupabase, identityQueryOptions } from '@/lib/auth';
import { localeFromPath, withLocale } from '@/lib/i18n';
import { useHarbourContact } from '@/components/harbour-facts';
import { NextBookingSection } from '@/features/account/components/bookings';
import { LongTermSummary } from '@/features/account/components/long-term';

export function AccountPage() {
  const { t } = useLingui();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { data: identity } = useQuery(identityQueryOptions);
  const signOut = async () => {
    const supabase = await getSupabase();
    await supabase.auth.signOut();
    queryClient.clear();
    await router.navigate({ href: withLocale('/start', localeFromPath(router.state.location.pathname)) });
  };
  const link = 'flex items-center justify-between rounded-lg border border-slate-200 bg-white p-4 hover:border-primary';
  return (
    <Page title={t`Mein Konto`} lead={identity?.status === 'loggedIn' && identity.email ? t`Angemeldet als ${identity.email}` : undefined}>
      <NextBookingSection />
      <LongTermSummary />
      <nav aria-label={t`Konto`} className="grid gap-2 sm:grid-cols-2">
        <Link to="/{-$locale}/account/profile" className={link}>
          <Trans>Profil und Bootsdaten</Trans>
          <ChevronRight className="size-4" aria-hidden />
        </Link>
        <Link to="/{-$locale}/account/bookings" className={link}>
          <Trans>Meine Buchungen</Trans>
          <ChevronRight className="size-4" aria-hidden />
        </Link>
        <Link to="/{-$locale}/account/long-time-place/{-$id}" params={{ id: undefined }} className={link}>
          <Trans>Mein Langzeitliegeplatz</Trans>
          <ChevronRight className="size-4" aria-hidden />
        </Link>
        <Link to="/{-$locale}/account/apply-long-time-place/{-$id}" params={{ id: undefined }} className={link}>
          <Trans>Langzeitliegeplatz beantragen</Trans>
          <ChevronRight className="size-4" aria-hidden />
        </Link>
      </nav>
      <div>
        <Button variant="outline" onClick={() => void signOut()}>
          <LogOut aria-hidden />
          <Trans>Abmelden</Trans>
        </Button>
      </div>
    </Page>
  );
}

/** Account and back-office pages that later issues fill in. */
export function InterimPage({ title }: { title: string }) {
  const harbour = useHarbourContact();
  return (
    <Page title={title}>
      <Prose>
        <p>
          <Trans>Dieser Bereich wird gerade eingerichtet. Bei Fragen hilft Ihnen das Hafenbüro: {harbour.phone}.</Trans>
        </p>
      </Prose>
    </Page>
  );
}
