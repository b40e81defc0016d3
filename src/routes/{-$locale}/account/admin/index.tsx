import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/{-$locale}/account/admin/')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/{-$locale}/account/admin/overview', params: { locale: params.locale }, replace: true });
  },
});
