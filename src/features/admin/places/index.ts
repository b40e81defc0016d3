/** The public face of features/admin/places: what other features may use (docs/architecture.md, "Boundaries"). */
export { ConfirmDialog } from '@/features/admin/places/components/confirm-dialog';
