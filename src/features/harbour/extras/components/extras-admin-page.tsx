import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { centsToInput, formatEuro } from '@/lib/prices';
import { cn } from '@/lib/utils';
import {
  extrasCatalogueQueryOptions,
  tariffsQueryOptions,
  useSaveExtra,
  useSaveTariff,
  type Extra,
  type Tariff,
} from '@/features/harbour/extras/api/extras';
import {
  extraFormSchema,
  tariffFormSchema,
  type ExtraFormInput,
  type ExtraFormValues,
  type TariffFormInput,
  type TariffFormValues,
} from '@/features/harbour/extras/schemas/extras';
import { useExtraUnitLabel } from '@/features/harbour/extras/components/extras-labels';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

/**
 * /account/admin/extras: the price list. First the berth tariffs (per running metre and night,
 * day berth per metre, additional costs per night: gross price and VAT rate, the quote and the
 * booking read them), then the catalogue of extras (washing machine, boat lift, ice, deposits)
 * with names in German and English, unit, gross price, VAT rate and the deposit flag. Admins add
 * and change entries; an entry is never deleted (orders keep their snapshot), it is switched
 * off. The database refuses a deposit with VAT and anyone who is not an admin.
 */
export function ExtrasAdminPage() {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const unitLabel = useExtraUnitLabel();
  const catalogue = useQuery(extrasCatalogueQueryOptions());
  const [editing, setEditing] = useState<Extra | 'new' | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <Page
      title={t`Preise und Extras`}
      lead={t`Die eine Preisliste: Liegeplatz-Tarife und der Katalog, aus dem das Hafenteam Extras an Buchungen hängt und am Hafenbüro verkauft. Preise sind Bruttopreise (Gesamtpreise inkl. USt.), wie Gäste sie auf der Preisseite sehen; ein Pfand ist kein Umsatz (0 % USt.).`}
    >
      {saved && (
        <p role="status" className="rounded-md bg-green-50 p-3 text-green-950">
          {saved}
        </p>
      )}
      <TariffsSection onSaved={setSaved} />
      <h2 className="text-xl font-semibold text-slate-900">
        <Trans>Extras</Trans>
      </h2>
      <div>
        <Button
          onClick={() => {
            setSaved(null);
            setEditing('new');
          }}
        >
          <Trans>Neues Extra</Trans>
        </Button>
      </div>
      {catalogue.isError ? (
        <FormAlert>{staffErrorMessage(catalogue.error)}</FormAlert>
      ) : catalogue.isPending ? (
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      ) : (
        <ul aria-label={t`Katalog`} className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {catalogue.data.map((e) => (
            <li
              key={e.id}
              data-testid="catalogue-entry"
              className={cn(
                'flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3',
                !e.active && 'bg-slate-50 text-slate-500',
              )}
            >
              <div className="flex min-w-0 flex-col">
                <span className="font-medium text-slate-900">
                  {locale === 'en' ? e.name_en : e.name}{' '}
                  <span className="font-normal text-slate-600">· {locale === 'en' ? e.name : e.name_en}</span>
                </span>
                <span className="text-sm text-slate-600">
                  {e.price_from ? t`ab ${formatEuro(e.price_cents, locale)}` : formatEuro(e.price_cents, locale)} / {unitLabel(e.unit)} ·{' '}
                  {e.deposit ? t`Pfand, 0 % USt.` : t`inkl. ${e.vat_rate} % USt.`}
                  {!e.active && ` · ${t`ausgeblendet`}`}
                </span>
              </div>
              <Button
                size="sm"
                variant="outline"
                onClick={() => {
                  setSaved(null);
                  setEditing(e);
                }}
                aria-label={t`${locale === 'en' ? e.name_en : e.name} bearbeiten`}
              >
                <Trans>Bearbeiten</Trans>
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)}>
        <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto">
          {editing !== null && (
            <ExtraForm
              extra={editing === 'new' ? null : editing}
              onDone={(text) => {
                setEditing(null);
                setSaved(text);
              }}
              onCancel={() => setEditing(null)}
            />
          )}
        </DialogContent>
      </Dialog>
    </Page>
  );
}

function ExtraForm({ extra, onDone, onCancel }: { extra: Extra | null; onDone: (text: string) => void; onCancel: () => void }) {
  const { t, i18n } = useLingui();
  const unitLabel = useExtraUnitLabel();
  const saving = useSaveExtra();
  const form = useForm<ExtraFormInput, unknown, ExtraFormValues>({
    resolver: zodResolver(extraFormSchema()),
    defaultValues: {
      code: extra?.code ?? '',
      name: extra?.name ?? '',
      name_en: extra?.name_en ?? '',
      unit: extra?.unit ?? 'piece',
      price: extra ? centsToInput(extra.price_cents, i18n.locale) : '',
      price_from: extra?.price_from ?? false,
      vat_rate: String(extra?.vat_rate ?? 19) as '19' | '7' | '0',
      deposit: extra?.deposit ?? false,
      active: extra?.active ?? true,
      sort_order: String(extra?.sort_order ?? 100),
    },
  });
  // The fields see the typed values (the schema's output has cents and numbers).
  const control = form.control as unknown as Control<ExtraFormInput>;
  const deposit = useWatch({ control, name: 'deposit' });
  const onSubmit = form.handleSubmit((v) =>
    saving.mutate(
      {
        id: extra?.id ?? null,
        values: {
          code: v.code,
          name: v.name,
          name_en: v.name_en,
          unit: v.unit,
          price_cents: v.price,
          price_from: v.price_from,
          vat_rate: Number(v.vat_rate),
          deposit: v.deposit,
          active: v.active,
          sort_order: v.sort_order,
        },
      },
      { onSuccess: () => onDone(t`${v.name} gespeichert.`) },
    ),
  );
  const text = (name: 'code' | 'name' | 'name_en' | 'price' | 'sort_order', label: string, props: Record<string, string> = {}) => (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Input autoComplete="off" {...props} {...field} />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
  const check = (name: 'price_from' | 'deposit' | 'active', label: string) => (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className="flex items-center gap-2">
          <FormControl>
            <Checkbox
              checked={field.value}
              onCheckedChange={(c) => {
                field.onChange(c === true);
                if (name === 'deposit' && c === true) form.setValue('vat_rate', '0');
              }}
            />
          </FormControl>
          <FormLabel className="font-normal">{label}</FormLabel>
        </FormItem>
      )}
    />
  );
  return (
    <>
      <DialogHeader>
        <DialogTitle>{extra ? <Trans>Extra bearbeiten</Trans> : <Trans>Neues Extra</Trans>}</DialogTitle>
        <DialogDescription>
          <Trans>Preisänderungen gelten für neue Buchungen und Verkäufe; was schon an einer Buchung hängt, behält seinen Preis.</Trans>
        </DialogDescription>
      </DialogHeader>
      <Form {...form}>
        <form noValidate onSubmit={onSubmit} aria-label={t`Extra`} className="grid gap-4 sm:grid-cols-2">
          {text('name', t`Name (Deutsch)`)}
          {text('name_en', t`Name (Englisch)`)}
          {text('code', t`Code`, extra ? { readOnly: 'readOnly' } : {})}
          <FormField
            control={control}
            name="unit"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Einheit</Trans>
                </FormLabel>
                <FormControl>
                  <select className="h-10 w-full rounded-md border border-slate-300 bg-white px-3" {...field}>
                    {(['piece', 'load', 'day'] as const).map((u) => (
                      <option key={u} value={u}>
                        {unitLabel(u)}
                      </option>
                    ))}
                  </select>
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          {text('price', t`Preis brutto (€)`, { inputMode: 'decimal' })}
          <FormField
            control={control}
            name="vat_rate"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>USt.-Satz</Trans>
                </FormLabel>
                <FormControl>
                  <select className="h-10 w-full rounded-md border border-slate-300 bg-white px-3" {...field} disabled={deposit}>
                    <option value="19">19 %</option>
                    <option value="7">7 %</option>
                    <option value="0">0 %</option>
                  </select>
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          {text('sort_order', t`Reihenfolge`, { inputMode: 'numeric' })}
          <div className="grid gap-2 sm:col-span-2">
            {check('price_from', t`„Ab“-Preis (das Hafenteam darf mehr berechnen)`)}
            {check('deposit', t`Pfand (kein Umsatz, 0 % USt., wird erstattet)`)}
            {check('active', t`Im Verkauf`)}
          </div>
          {saving.error && <FormAlert className="text-sm sm:col-span-2">{staffErrorMessage(saving.error)}</FormAlert>}
          <div className="flex flex-wrap justify-end gap-2 sm:col-span-2">
            <Button type="button" variant="outline" onClick={onCancel}>
              <Trans>Abbrechen</Trans>
            </Button>
            <Button type="submit" disabled={saving.isPending}>
              <Trans>Speichern</Trans>
            </Button>
          </div>
        </form>
      </Form>
    </>
  );
}

/** The berth tariffs: gross price per unit and VAT rate, edited in a dialog. */
function TariffsSection({ onSaved }: { onSaved: (text: string | null) => void }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const tariffs = useQuery(tariffsQueryOptions());
  const [editing, setEditing] = useState<Tariff | null>(null);
  const unit = (u: Tariff['unit']) =>
    u === 'metre_night' ? t`pro Meter und Nacht` : u === 'metre_day' ? t`pro Meter und Tag` : t`pro Nacht`;
  return (
    <section aria-labelledby="tariffs-heading" className="grid gap-3">
      <h2 id="tariffs-heading" className="text-xl font-semibold text-slate-900">
        <Trans>Liegeplatz-Tarife</Trans>
      </h2>
      {tariffs.isError ? (
        <FormAlert>{staffErrorMessage(tariffs.error)}</FormAlert>
      ) : tariffs.isPending ? (
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      ) : (
        <ul aria-label={t`Liegeplatz-Tarife`} className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {tariffs.data.map((e) => (
            <li key={e.code} data-testid="tariff-entry" className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
              <div className="flex min-w-0 flex-col">
                <span className="font-medium text-slate-900">{locale === 'en' ? e.name_en : e.name}</span>
                <span className="text-sm text-slate-600">
                  {formatEuro(e.gross_cents, locale)} {unit(e.unit)} · {t`inkl. ${e.vat_rate} % USt.`}
                </span>
              </div>
              <Button
                size="sm"
                variant="outline"
                onClick={() => {
                  onSaved(null);
                  setEditing(e);
                }}
                aria-label={t`${locale === 'en' ? e.name_en : e.name} bearbeiten`}
              >
                <Trans>Bearbeiten</Trans>
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)}>
        <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto">
          {editing !== null && (
            <TariffForm
              tariff={editing}
              onDone={(text) => {
                setEditing(null);
                onSaved(text);
              }}
              onCancel={() => setEditing(null)}
            />
          )}
        </DialogContent>
      </Dialog>
    </section>
  );
}

function TariffForm({ tariff, onDone, onCancel }: { tariff: Tariff; onDone: (text: string) => void; onCancel: () => void }) {
  const { t, i18n } = useLingui();
  const saving = useSaveTariff();
  const form = useForm<TariffFormInput, unknown, TariffFormValues>({
    resolver: zodResolver(tariffFormSchema()),
    defaultValues: {
      name: tariff.name,
      name_en: tariff.name_en,
      price: centsToInput(tariff.gross_cents, i18n.locale),
      vat_rate: String(tariff.vat_rate) as '19' | '7' | '0',
    },
  });
  const control = form.control as unknown as Control<TariffFormInput>;
  const onSubmit = form.handleSubmit((v) =>
    saving.mutate(
      { code: tariff.code, values: { name: v.name, name_en: v.name_en, gross_cents: v.price, vat_rate: Number(v.vat_rate) } },
      { onSuccess: () => onDone(t`${v.name} gespeichert.`) },
    ),
  );
  const text = (name: 'name' | 'name_en' | 'price', label: string, props: Record<string, string> = {}) => (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Input autoComplete="off" {...props} {...field} />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
  return (
    <>
      <DialogHeader>
        <DialogTitle>
          <Trans>Tarif bearbeiten</Trans>
        </DialogTitle>
        <DialogDescription>
          <Trans>
            Preisänderungen gelten für neue Angebote und Buchungen; gebuchte Aufenthalte und ausgestellte Rechnungen behalten ihren Preis.
          </Trans>
        </DialogDescription>
      </DialogHeader>
      <Form {...form}>
        <form noValidate onSubmit={onSubmit} aria-label={t`Tarif`} className="grid gap-4 sm:grid-cols-2">
          {text('name', t`Name (Deutsch)`)}
          {text('name_en', t`Name (Englisch)`)}
          {text('price', t`Preis brutto (€)`, { inputMode: 'decimal' })}
          <FormField
            control={control}
            name="vat_rate"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>USt.-Satz</Trans>
                </FormLabel>
                <FormControl>
                  <select className="h-10 w-full rounded-md border border-slate-300 bg-white px-3" {...field}>
                    <option value="19">19 %</option>
                    <option value="7">7 %</option>
                    <option value="0">0 %</option>
                  </select>
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          {saving.error && <FormAlert className="text-sm sm:col-span-2">{staffErrorMessage(saving.error)}</FormAlert>}
          <div className="flex flex-wrap justify-end gap-2 sm:col-span-2">
            <Button type="button" variant="outline" onClick={onCancel}>
              <Trans>Abbrechen</Trans>
            </Button>
            <Button type="submit" disabled={saving.isPending}>
              <Trans>Speichern</Trans>
            </Button>
          </div>
        </form>
      </Form>
    </>
  );
}
