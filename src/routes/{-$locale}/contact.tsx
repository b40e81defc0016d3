import { createFileRoute } from '@tanstack/react-router';
import { ContactPage } from '@/features/contact/components/contact-page';

export const Route = createFileRoute('/{-$locale}/contact')({
  component: ContactPage,
});
