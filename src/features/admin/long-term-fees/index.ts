/** The public face of features/admin/long-term-fees (docs/architecture.md, "Boundaries"): the page the lead mounts under /account/admin. */
export { LongTermFeesPage } from '@/features/admin/long-term-fees/components';
