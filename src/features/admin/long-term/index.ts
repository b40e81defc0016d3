/** The public face of features/admin/long-term: what other features may use (docs/architecture.md, "Boundaries"). */
export { HolderSection } from '@/features/admin/long-term/components/holder-section';
