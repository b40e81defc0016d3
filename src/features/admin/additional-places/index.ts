/** The public face of features/admin/additional-places: what other features may use (docs/architecture.md, "Boundaries"). */
export { columnsQueryOptions, saveColumn } from '@/features/admin/additional-places/api/additional-places';
export type { Column, ColumnInput, ColumnSaveError } from '@/features/admin/additional-places/api/additional-places';
export { columnDraft, useColumnSaveMessages } from '@/features/admin/additional-places/components/column-edit-page';
export { ColumnForm, useColumnForm } from '@/features/admin/additional-places/components/column-form';
export type { ColumnDraft } from '@/features/admin/additional-places/components/column-form';
export { useColumnTypeLabels } from '@/features/admin/additional-places/components/columns-list-page';
