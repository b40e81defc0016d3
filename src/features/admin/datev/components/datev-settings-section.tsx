import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Section } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';

import { datevKeys, datevSettingsQueryOptions, saveDatevSettings, type DatevSettingsRow } from '@/features/admin/datev/api/datev';
import { datevSettingsSchema, type DatevSettingsValues } from '@/features/admin/datev/schemas/datev';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

type SaveState = { ok: true } | { ok: false; message: string } | undefined;

/** On the admin settings page: the numbers the tax adviser gives and the accounts of the DATEV export (SKR03 defaults). */
export function DatevSettingsSection() {
  const { t } = useLingui();
  const { data: settings } = useSuspenseQuery(datevSettingsQueryOptions());
  const [state, setState] = useState<SaveState>();
  return (
    <Section id="datev" title={t`DATEV-Export`} aria-label={t`DATEV-Export`}>
      <p className="max-w-prose text-sm text-slate-700">
        <Trans>
          Berater- und Mandantennummer und den Beginn des Wirtschaftsjahrs nennt Ihnen Ihre Steuerkanzlei. Die Konten sind die des
          Kontenrahmens SKR03; die Erlöskonten sind Automatikkonten, DATEV rechnet die Umsatzsteuer selbst heraus.
        </Trans>
      </p>
      <DatevSettingsForm key={JSON.stringify(settings)} settings={settings} state={state} setState={setState} />
    </Section>
  );
}

function DatevSettingsForm({
  settings,
  state,
  setState,
}: {
  settings: DatevSettingsRow;
  state: SaveState;
  setState: (s: SaveState) => void;
}) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const form = useForm<DatevSettingsValues>({
    resolver: zodResolver(datevSettingsSchema()),
    defaultValues: { ...settings, account_length: String(settings.account_length) },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setState(undefined);
    try {
      await saveDatevSettings(v);
      setState({ ok: true });
      await queryClient.invalidateQueries({ queryKey: datevKeys.settings });
    } catch (e) {
      const hint = (e as { hint?: string }).hint;
      if (hint && hint in v) form.setError(hint as keyof DatevSettingsValues, { message: t`Dieser Wert ist nicht gültig` });
      setState({ ok: false, message: staffErrorMessage(e) });
    }
  });
  const fields: { name: keyof DatevSettingsValues; label: string; description?: string }[] = [
    { name: 'consultant_number', label: t`Beraternummer`, description: t`1001 bis 9999999` },
    { name: 'client_number', label: t`Mandantennummer`, description: t`1 bis 99999` },
    { name: 'fiscal_year_start', label: t`Beginn des Wirtschaftsjahrs (MM-TT)`, description: t`Kalenderjahr: 01-01` },
    { name: 'account_length', label: t`Sachkontenlänge`, description: t`SKR03: 4 Stellen` },
    { name: 'account_revenue_19', label: t`Erlöse 19 % USt.`, description: t`SKR03: 8400` },
    { name: 'account_revenue_7', label: t`Erlöse 7 % USt.`, description: t`SKR03: 8300` },
    { name: 'account_revenue_0', label: t`Positionen ohne USt. (Pfand)`, description: t`SKR03: 1590 Durchlaufende Posten` },
    { name: 'account_debtor', label: t`Debitor (Sammelkonto Gäste)`, description: t`Eine Stelle länger als die Sachkonten, z. B. 10000` },
    { name: 'account_cash', label: t`Kasse`, description: t`SKR03: 1000` },
    { name: 'account_bank', label: t`Bank (Überweisungen)`, description: t`SKR03: 1200` },
    { name: 'account_transit', label: t`Geldtransit (Karte, online)`, description: t`SKR03: 1360` },
  ];
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate aria-label={t`DATEV-Export`} className="grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {fields.map((f) => (
            <FormField
              key={f.name}
              control={form.control}
              name={f.name}
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{f.label}</FormLabel>
                  <FormControl>
                    <Input {...field} inputMode={f.name === 'fiscal_year_start' ? 'text' : 'numeric'} autoComplete="off" />
                  </FormControl>
                  {f.description && <FormDescription>{f.description}</FormDescription>}
                  <FormMessage />
                </FormItem>
              )}
            />
          ))}
        </div>
        <div aria-live="polite">
          {state?.ok && (
            <p role="status" className="text-sm text-green-800">
              <Trans>Gespeichert.</Trans>
            </p>
          )}
          {state && !state.ok && <FormAlert className="text-sm">{state.message}</FormAlert>}
        </div>
        <div>
          <Button type="submit" disabled={form.formState.isSubmitting}>
            <Trans>DATEV-Einstellungen speichern</Trans>
          </Button>
        </div>
      </form>
    </Form>
  );
}
