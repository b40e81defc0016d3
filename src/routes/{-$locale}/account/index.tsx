import { createFileRoute } from '@tanstack/react-router';
import { AccountPage } from '@/features/account/components/account-pages';

export const Route = createFileRoute('/{-$locale}/account/')({
  component: AccountPage,
});
