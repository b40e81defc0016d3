import type { ReactNode } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import type { ColumnInput } from '@/features/admin/additional-places/api/additional-places';
import { useColumnTypeLabels } from '@/features/admin/additional-places/components/columns-list-page';
import { columnInput, columnSchema, type ColumnValues } from '@/features/admin/additional-places/schemas/column';
import { FormAlert } from '@/components/form-alert';

export type ColumnDraft = ColumnValues;

/** The form state of a column's fields; the caller may set x and y from outside (a click on the plan). */
export function useColumnForm(defaultValues: ColumnDraft) {
  return useForm<ColumnValues>({ resolver: zodResolver(columnSchema), defaultValues });
}

/** The fields of a column: a name, its type and both coordinates on the 1000 x 600 plan. */
export function ColumnForm({
  form,
  onSubmit,
  children,
  label,
}: {
  form: UseFormReturn<ColumnValues>;
  onSubmit: (input: ColumnInput) => void;
  children: ReactNode;
  label: string;
}) {
  const { t } = useLingui();
  const types = useColumnTypeLabels();
  const { errors } = form.formState;
  const positionError = errors.x?.message ?? errors.y?.message;
  const submit = form.handleSubmit((values) => onSubmit(columnInput(values)));
  return (
    <Form {...form}>
      <form aria-label={label} noValidate className="grid gap-3 sm:grid-cols-2" onSubmit={(e) => void submit(e)}>
        <FormField
          control={form.control}
          name="name"
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel>
                <Trans>Name</Trans>
              </FormLabel>
              <FormControl>
                <Input {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="type"
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel>
                <Trans>Art</Trans>
              </FormLabel>
              <FormControl>
                <select className="h-10 rounded-md border border-slate-300 bg-white px-2" {...field}>
                  <option value="electric">{types.electric}</option>
                  <option value="water">{types.water}</option>
                </select>
              </FormControl>
            </FormItem>
          )}
        />
        <fieldset className="grid gap-2 sm:col-span-2 sm:grid-cols-2">
          <legend className="mb-1 text-sm font-medium">
            <Trans>Position auf dem Hafenplan (x 0–1000, y 0–600)</Trans>
          </legend>
          {(['x', 'y'] as const).map((axis) => (
            <FormField
              key={axis}
              control={form.control}
              name={axis}
              render={({ field }) => (
                <FormItem className="gap-1">
                  <FormLabel>{axis === 'x' ? t`x` : t`y`}</FormLabel>
                  <FormControl aria-invalid={!!positionError}>
                    <Input inputMode="decimal" {...field} />
                  </FormControl>
                </FormItem>
              )}
            />
          ))}
          {positionError && <FormAlert className="text-sm sm:col-span-2">{positionError}</FormAlert>}
        </fieldset>
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">{children}</div>
      </form>
    </Form>
  );
}
