import { useEffect } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { buttonVariants } from '@/components/ui/button-variants';
import { isChunkLoadError, reloadForChunkError } from '@/lib/chunk-reload';
import { usePageTitle } from '@/lib/page-title';

/** Any other error: 'An error occurred' with a Home link; a failed chunk load reloads (once a minute). */
export function ErrorPage({ error }: { error: unknown }) {
  const { t } = useLingui();
  usePageTitle(t`Ein Fehler ist aufgetreten`);
  useEffect(() => {
    if (isChunkLoadError(error)) reloadForChunkError();
    else console.warn(error);
  }, [error]);
  return (
    <section role="alert" className="mx-auto flex max-w-md flex-col items-center gap-4 py-12 text-center">
      <h1 className="text-3xl font-bold">
        <Trans>Ein Fehler ist aufgetreten</Trans>
      </h1>
      <p className="text-slate-700">
        <Trans>Bitte versuchen Sie es später noch einmal.</Trans>
      </p>
      {/* A full page load: the app starts afresh, whatever state the error left. */}
      <Link to="/{-$locale}/start" reloadDocument className={buttonVariants()}>
        <Trans>Startseite</Trans>
      </Link>
    </section>
  );
}
