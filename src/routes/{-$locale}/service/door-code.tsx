import { createFileRoute } from '@tanstack/react-router';
import { AccessCodesPage } from '@/features/service/components/access-codes-page';

export const Route = createFileRoute('/{-$locale}/service/door-code')({
  component: () => <AccessCodesPage kind="door" />,
});
