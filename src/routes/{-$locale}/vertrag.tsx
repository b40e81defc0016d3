import { createFileRoute } from '@tanstack/react-router';
import { ContractPage } from '@/features/legal/components/legal-pages';

export const Route = createFileRoute('/{-$locale}/vertrag')({
  component: ContractPage,
});
