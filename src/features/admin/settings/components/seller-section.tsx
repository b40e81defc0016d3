import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Section } from '@/components/page';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';

import { saveSellerSettings, sellerSettingsQueryOptions, settingsKeys, type SellerSettings } from '@/features/admin/settings/api/settings';
import { sellerSchema, type SellerValues } from '@/features/admin/settings/schemas/settings';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { SaveFooter } from '@/components/save-footer';

type SaveState = { ok: true } | { ok: false; message: string } | undefined;

/** On the settings page: the seller data stamped on every new invoice document (issued ones keep theirs). */
export function SellerSection() {
  const { t } = useLingui();
  const { data } = useSuspenseQuery(sellerSettingsQueryOptions());
  const [state, setState] = useState<SaveState>();
  return (
    <Section id="seller" title={t`Rechnungsangaben des Hafens`} aria-label={t`Rechnungsangaben des Hafens`}>
      <p className="max-w-prose text-sm text-slate-700">
        <Trans>
          Diese Angaben stehen als Rechnungsaussteller auf jeder neuen Rechnung, Quittung und E-Rechnung. Bereits ausgestellte Belege
          behalten ihre Angaben.
        </Trans>
      </p>
      <SellerForm key={JSON.stringify(data)} settings={data} state={state} setState={setState} />
    </Section>
  );
}

function SellerForm({ settings, state, setState }: { settings: SellerSettings; state: SaveState; setState: (s: SaveState) => void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const form = useForm<SellerValues>({ resolver: zodResolver(sellerSchema), defaultValues: settings });
  const onSubmit = form.handleSubmit(async (v) => {
    setState(undefined);
    try {
      await saveSellerSettings(v);
      setState({ ok: true });
      await queryClient.invalidateQueries({ queryKey: [...settingsKeys.all, 'seller'] });
    } catch (e) {
      const hint = (e as { hint?: string }).hint;
      if (hint && hint in v) form.setError(hint as keyof SellerValues, { message: t`Dieser Wert ist nicht gültig` });
      setState({ ok: false, message: staffErrorMessage(e) });
    }
  });
  const fields: { name: keyof SellerValues; label: string; description?: string; autoComplete?: string }[] = [
    { name: 'name', label: t`Name`, autoComplete: 'organization' },
    { name: 'street', label: t`Straße und Hausnummer`, autoComplete: 'street-address' },
    { name: 'postal_code', label: t`Postleitzahl`, autoComplete: 'postal-code' },
    { name: 'city', label: t`Ort`, autoComplete: 'address-level2' },
    { name: 'country', label: t`Land (Code)`, description: t`Zwei Buchstaben, z. B. DE` },
    { name: 'email', label: t`E-Mail`, autoComplete: 'email' },
    { name: 'phone', label: t`Telefon`, autoComplete: 'tel' },
    { name: 'vat_id', label: t`USt-IdNr.` },
    { name: 'tax_number', label: t`Steuernummer`, description: t`USt-IdNr. oder Steuernummer ist Pflicht` },
    { name: 'iban', label: t`IBAN`, description: t`Für die Zahlungsangaben der E-Rechnung` },
    { name: 'bic', label: t`BIC` },
  ];
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate aria-label={t`Rechnungsangaben des Hafens`} className="grid gap-4">
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
                    <Input {...field} autoComplete={f.autoComplete ?? 'off'} />
                  </FormControl>
                  {f.description && <FormDescription>{f.description}</FormDescription>}
                  <FormMessage />
                </FormItem>
              )}
            />
          ))}
        </div>
        <SaveFooter state={state} submitting={form.formState.isSubmitting}>
          <Trans>Rechnungsangaben speichern</Trans>
        </SaveFooter>
      </form>
    </Form>
  );
}
