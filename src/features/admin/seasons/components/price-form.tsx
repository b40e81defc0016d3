import { useState } from 'react';
import { useForm, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { DatePicker } from '@/components/ui/date-picker';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { berlinToday, formatDay } from '@/lib/dates';
import { formatEuro } from '@/lib/prices';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { SEASON_KINDS } from '@/features/admin/seasons/api/seasons';
import { useAddLongTermPrice } from '@/features/admin/seasons/api/add-long-term-price';
import { longTermPriceSchema, type LongTermPriceInput, type LongTermPriceValues } from '@/features/admin/seasons/schemas/long-term-price';
import { useSeasonLabels } from '@/features/admin/seasons/components/season-labels';

/**
 * Admins add a price change for a season kind, valid from a later day. The list is append-only,
 * so the change is confirmed first (ConfirmDialog); a refusal stays in the dialog.
 */
export function PriceForm() {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const labels = useSeasonLabels();
  const add = useAddLongTermPrice();
  const [pending, setPending] = useState<LongTermPriceValues | null>(null);
  const form = useForm<LongTermPriceInput, unknown, LongTermPriceValues>({
    resolver: zodResolver(longTermPriceSchema(berlinToday())),
    defaultValues: {
      kind: 'summer',
      basis: 'running_metre',
      price: '',
      vatRate: '19',
      electricity: '0',
      electricityVatRate: '19',
      validFrom: '',
    },
  });
  // The fields see the typed text (the schema's output has cents).
  const control = form.control as unknown as Control<LongTermPriceInput>;
  const submit = form.handleSubmit((v) => {
    add.reset();
    setPending(v);
  });
  const select = 'h-9 w-full rounded-md border border-slate-300 bg-white px-2';
  const vatSelect = (name: 'vatRate' | 'electricityVatRate', label: string) => (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className="gap-1">
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <select className={select} {...field}>
              <option value="19">19 %</option>
              <option value="7">7 %</option>
              <option value="0">0 %</option>
            </select>
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
  const euro = (name: 'price' | 'electricity', label: string) => (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className="gap-1">
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Input autoComplete="off" inputMode="decimal" {...field} />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
  return (
    <Form {...form}>
      <form
        noValidate
        onSubmit={(e) => void submit(e)}
        aria-label={t`Preisänderung`}
        className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2"
      >
        <h3 className="text-lg font-semibold sm:col-span-2">
          <Trans>Preisänderung</Trans>
        </h3>
        <p className="text-sm text-muted-foreground sm:col-span-2">
          <Trans>
            Eine Saison kostet, was an ihrem ersten Tag gilt: Eine Änderung erreicht die Verträge ab der nächsten Saison, eine begonnene
            Saison behält ihren Preis. Preise sind Bruttopreise (inkl. USt.).
          </Trans>
        </p>
        <FormField
          control={control}
          name="kind"
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel>
                <Trans>Saisonart</Trans>
              </FormLabel>
              <FormControl>
                <select className={select} {...field}>
                  {SEASON_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {labels.kind(k)}
                    </option>
                  ))}
                </select>
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={control}
          name="basis"
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel>
                <Trans>Berechnung</Trans>
              </FormLabel>
              <FormControl>
                <select className={select} {...field}>
                  <option value="running_metre">{labels.basis('running_metre')}</option>
                  <option value="square_metre">{labels.basis('square_metre')}</option>
                </select>
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        {euro('price', t`Preis je Einheit und Saison, brutto (€)`)}
        {vatSelect('vatRate', t`USt.-Satz des Liegeplatzes`)}
        {euro('electricity', t`Strompauschale je Saison, brutto (€)`)}
        {vatSelect('electricityVatRate', t`USt.-Satz der Strompauschale`)}
        <FormField
          control={control}
          name="validFrom"
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel>
                <Trans>Gültig ab</Trans>
              </FormLabel>
              <FormControl>
                <DatePicker required {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <div className="flex flex-wrap items-end gap-3 sm:col-span-2">
          <Button type="submit" disabled={add.isPending}>
            <Trans>Preisänderung speichern</Trans>
          </Button>
          {add.isSuccess && (
            <p role="status" className="text-sm text-muted-foreground">
              <Trans>Preisänderung gespeichert.</Trans>
            </p>
          )}
        </div>
      </form>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={t`Preisänderung speichern?`}
        description={
          pending
            ? t`${labels.kind(pending.kind)}: ${formatEuro(pending.price, locale)} ${labels.basis(pending.basis)}, für Saisons, die am ${formatDay(pending.validFrom, locale)} oder später beginnen. Die Preisliste wird nie geändert: Eine Korrektur ist eine weitere Preisänderung.`
            : undefined
        }
        confirmLabel={t`Speichern`}
        busy={add.isPending}
        error={add.error ? staffErrorMessage(add.error) : undefined}
        onConfirm={() => {
          if (!pending) return;
          add.mutate(pending, {
            onSuccess: () => {
              setPending(null);
              form.reset();
            },
          });
        }}
      />
    </Form>
  );
}
