import { createFileRoute, notFound } from '@tanstack/react-router';
import { isLocale } from '@/lib/i18n';

/** The optional locale prefix: /de/..., /en/... or none; anything else is a 404. */
export const Route = createFileRoute('/{-$locale}')({
  beforeLoad: ({ params }) => {
    if (params.locale !== undefined && !isLocale(params.locale)) throw notFound();
  },
});
