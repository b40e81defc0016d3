import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { buttonVariants } from '@/components/ui/button-variants';
import { usePageTitle } from '@/lib/page-title';

export function NotFoundPage() {
  const { t } = useLingui();
  usePageTitle(t`404 Nicht gefunden`);
  return (
    <section className="mx-auto flex max-w-md flex-col items-center gap-4 py-12 text-center">
      <h1 className="text-3xl font-bold">
        <Trans>404 Nicht gefunden</Trans>
      </h1>
      <p className="text-slate-700">
        <Trans>Diese Seite konnte nicht gefunden werden</Trans>
      </p>
      <Link to="/{-$locale}/start" className={buttonVariants()}>
        <Trans>Zur Startseite</Trans>
      </Link>
    </section>
  );
}
