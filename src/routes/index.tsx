import { createFileRoute } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';

export const Route = createFileRoute('/')({
  component: Home,
});

function Home() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
      <img src="/logo.svg" alt="" width={72} height={72} />
      <h1 className="text-3xl font-semibold text-primary">
        <Trans>Hafen Düsseldorf</Trans>
      </h1>
      <p className="text-slate-700">
        <Trans>Liegeplätze am Rhein buchen – bald hier.</Trans>
      </p>
    </main>
  );
}
