/** The public face of features/admin/reports: what other features may use (docs/architecture.md, "Boundaries"). */
export { dayRangeSchema } from '@/features/admin/reports/schemas/range';
