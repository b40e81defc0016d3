import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { DatePicker } from '@/components/ui/date-picker';
import { refusalOf } from '@/lib/refused';
import { useAddBerthBlock, type BlockError } from '@/features/harbour/calendar/api/berth-block';
import { blockSchema, type BlockValues } from '@/features/harbour/calendar/schemas/block';
import { FormAlert } from '@/components/form-alert';

/** Staff block a berth for maintenance (or reserve it) for whole days; overlaps are refused with a clear message. */
export function BlockForm({
  places,
  defaultDay,
  defaultTo,
  onSaved,
}: {
  places: { id: string; name: string }[];
  defaultDay: string;
  defaultTo?: string;
  onSaved?: () => void;
}) {
  const { t } = useLingui();
  const add = useAddBerthBlock();
  const form = useForm<BlockValues>({
    resolver: zodResolver(blockSchema),
    defaultValues: { placeId: places[0]?.id ?? '', reason: 'maintenance', from: defaultDay, to: defaultTo ?? defaultDay, note: '' },
  });

  const messages: Record<BlockError, string> = {
    overlap: t`Der Liegeplatz ist in diesem Zeitraum schon belegt oder gesperrt. Bitte einen anderen Zeitraum oder Liegeplatz wählen.`,
    invalid_period: t`Das Enddatum darf nicht vor dem Anfangsdatum liegen.`,
    too_long: t`Eine Sperre darf höchstens 400 Tage dauern.`,
    unknown: t`Die Sperre konnte nicht gespeichert werden. Bitte erneut versuchen.`,
  };
  const refusal = refusalOf<BlockError>(add.error);

  const submit = form.handleSubmit((values) => add.mutate(values, { onSuccess: () => onSaved?.() }));
  const select = 'h-9 rounded-md border border-slate-300 bg-white px-2';

  return (
    <Form {...form}>
      <form
        onSubmit={(e) => void submit(e)}
        noValidate
        aria-label={t`Liegeplatz sperren`}
        className="grid gap-3 rounded-lg border border-slate-200 bg-white p-3 sm:grid-cols-2"
      >
        <h2 className="text-lg font-semibold sm:col-span-2">
          <Trans>Liegeplatz sperren</Trans>
        </h2>
        <FormField
          control={form.control}
          name="placeId"
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel>
                <Trans>Liegeplatz</Trans>
              </FormLabel>
              <FormControl>
                <select className={select} {...field}>
                  {places.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </select>
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="reason"
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel>
                <Trans>Art</Trans>
              </FormLabel>
              <FormControl>
                <select className={select} {...field}>
                  <option value="maintenance">{t`Wartung`}</option>
                  <option value="reserved">{t`Gesperrt`}</option>
                </select>
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="from"
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel>
                <Trans>Von</Trans>
              </FormLabel>
              <FormControl>
                <DatePicker required {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="to"
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel>
                <Trans>Bis einschließlich</Trans>
              </FormLabel>
              <FormControl>
                <DatePicker required {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="note"
          render={({ field }) => (
            <FormItem className="gap-1 sm:col-span-2">
              <FormLabel>
                <Trans>Notiz (optional)</Trans>
              </FormLabel>
              <FormControl>
                <Input maxLength={2000} {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <div className="flex items-center gap-3 sm:col-span-2">
          <Button type="submit" disabled={add.isPending || places.length === 0}>
            <Trans>Sperre speichern</Trans>
          </Button>
          {add.isSuccess && (
            <p role="status" className="text-sm text-green-700">
              <Trans>Sperre gespeichert.</Trans>
            </p>
          )}
        </div>
        {refusal && <FormAlert className="text-sm sm:col-span-2">{messages[refusal]}</FormAlert>}
      </form>
    </Form>
  );
}
