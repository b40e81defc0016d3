import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';

export function Footer() {
  return (
    <footer className="mx-auto w-full max-w-6xl px-4 pt-8 pb-4 text-sm text-slate-600 md:px-6">
      <nav className="flex flex-wrap gap-x-4 gap-y-2">
        <Link to="/{-$locale}/privacy" className="underline-offset-4 hover:underline">
          <Trans>Datenschutz</Trans>
        </Link>
        <Link to="/{-$locale}/terms" className="underline-offset-4 hover:underline">
          <Trans>AGB</Trans>
        </Link>
        <Link to="/{-$locale}/impressum" className="underline-offset-4 hover:underline">
          <Trans>Impressum</Trans>
        </Link>
      </nav>
      <p className="mt-2">
        <Trans>Hafen Düsseldorf · Am Rhein</Trans>
      </p>
    </footer>
  );
}
