/** The public face of features/admin/datev: what other features may use (docs/architecture.md, "Boundaries"). */
export { DatevSettingsSection } from '@/features/admin/datev/components/datev-settings-section';
