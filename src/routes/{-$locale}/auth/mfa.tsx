import { createFileRoute } from '@tanstack/react-router';
import { MfaPage } from '@/features/auth/components/mfa';

export const Route = createFileRoute('/{-$locale}/auth/mfa')({
  // A plain function rather than zod: route options are in the initial bundle.
  validateSearch: (search: Record<string, unknown>): { from?: string } => ({
    from: typeof search.from === 'string' ? search.from : undefined,
  }),
  component: function Mfa() {
    const { from } = Route.useSearch();
    return <MfaPage from={from} />;
  },
});
