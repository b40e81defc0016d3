import { createFileRoute } from '@tanstack/react-router';
import { SaleCodeCreatePage } from '@/features/admin/sale-codes/components/sale-code-form-page';

export const Route = createFileRoute('/{-$locale}/account/admin/sale-codes/create')({
  component: SaleCodeCreatePage,
});
