import type { ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { decimal, isDecimal } from '@/lib/validation';
import type { ColumnInput, ColumnType } from '@/features/admin/additional-places/api/additional-places';
import { useColumnTypeLabels } from '@/features/admin/additional-places/components/columns-list-page';
import { FormAlert } from '@/components/form-alert';

export interface ColumnDraft {
  type: ColumnType;
  name: string;
  x: string;
  y: string;
}

export type ColumnDraftError = 'name' | 'position';

/** 'position required' unless both coordinates are numbers on the 1000 x 600 plan. */
export function parseColumn(d: ColumnDraft): { input: ColumnInput } | { errors: ColumnDraftError[] } {
  const errors: ColumnDraftError[] = [];
  const name = d.name.trim();
  if (!name || name.length > 100) errors.push('name');
  const ok = (v: string, max: number) => isDecimal(v) && decimal(v) <= max;
  if (!ok(d.x, 1000) || !ok(d.y, 600)) errors.push('position');
  if (errors.length) return { errors };
  return { input: { type: d.type, name, position: [decimal(d.x), decimal(d.y)] } };
}

/** The fields of a column; x and y can also be set from outside (a click on the plan). */
export function ColumnForm({
  draft,
  onChange,
  onSubmit,
  errors,
  children,
  label,
}: {
  draft: ColumnDraft;
  onChange: (d: ColumnDraft) => void;
  onSubmit: () => void;
  errors: ColumnDraftError[];
  children: ReactNode;
  label: string;
}) {
  const { t } = useLingui();
  const types = useColumnTypeLabels();
  return (
    <form
      aria-label={label}
      noValidate
      className="grid gap-3 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <div className="grid gap-1">
        <Label htmlFor="column-name">
          <Trans>Name</Trans>
        </Label>
        <Input
          id="column-name"
          value={draft.name}
          aria-invalid={errors.includes('name')}
          onChange={(e) => onChange({ ...draft, name: e.target.value })}
        />
        {errors.includes('name') && (
          <FormAlert className="text-sm">
            <Trans>Bitte einen Namen (1–100 Zeichen) eingeben.</Trans>
          </FormAlert>
        )}
      </div>
      <div className="grid gap-1">
        <Label htmlFor="column-type">
          <Trans>Art</Trans>
        </Label>
        <select
          id="column-type"
          className="h-10 rounded-md border border-slate-300 bg-white px-2"
          value={draft.type}
          onChange={(e) => onChange({ ...draft, type: e.target.value === 'water' ? 'water' : 'electric' })}
        >
          <option value="electric">{types.electric}</option>
          <option value="water">{types.water}</option>
        </select>
      </div>
      <fieldset className="grid gap-2 sm:col-span-2 sm:grid-cols-2">
        <legend className="mb-1 text-sm font-medium">
          <Trans>Position auf dem Hafenplan (x 0–1000, y 0–600)</Trans>
        </legend>
        <div className="grid gap-1">
          <Label htmlFor="column-x">
            <Trans>x</Trans>
          </Label>
          <Input
            id="column-x"
            inputMode="decimal"
            value={draft.x}
            aria-invalid={errors.includes('position')}
            onChange={(e) => onChange({ ...draft, x: e.target.value })}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="column-y">
            <Trans>y</Trans>
          </Label>
          <Input
            id="column-y"
            inputMode="decimal"
            value={draft.y}
            aria-invalid={errors.includes('position')}
            onChange={(e) => onChange({ ...draft, y: e.target.value })}
          />
        </div>
        {errors.includes('position') && (
          <FormAlert className="text-sm sm:col-span-2">{t`Position erforderlich: genau 2 Koordinaten (x 0–1000, y 0–600).`}</FormAlert>
        )}
      </fieldset>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">{children}</div>
    </form>
  );
}
