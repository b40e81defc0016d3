import { useState } from 'react';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { PathLink, useLocalizedHref } from '@/components/layout/path-link';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { saleCodeQueryOptions, useSaveSaleCode, type SaleCode } from '@/features/admin/sale-codes/api/sale-codes';
import {
  centsToEuro,
  euroToCents,
  saleCodeSchema,
  type SaleCodeInput,
  type SaleCodeValues,
} from '@/features/admin/sale-codes/schemas/sale-code';
import { useSaleCodeLabel } from '@/features/admin/sale-codes/components/sale-codes-page';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

/** /account/admin/sale-codes/create: the form, then the confirmation dialog 'Code erstellen'. */
export function SaleCodeCreatePage() {
  const { t } = useLingui();
  return (
    <Page title={t`Code erstellen`}>
      <SaleCodeForm code={null} />
    </Page>
  );
}

/** /account/admin/sale-codes/{id}/edit. */
export function SaleCodeEditPage({ id }: { id: string }) {
  const { t } = useLingui();
  const { data: code } = useSuspenseQuery(saleCodeQueryOptions(id));
  return (
    <Page title={t`Code bearbeiten`}>
      {code ? (
        <SaleCodeForm key={code.id} code={code} />
      ) : (
        <FormAlert>
          <Trans>Diesen Code gibt es nicht (mehr).</Trans>
        </FormAlert>
      )}
    </Page>
  );
}

function SaleCodeForm({ code }: { code: SaleCode | null }) {
  const { t, i18n } = useLingui();
  const label = useSaleCodeLabel();
  const router = useRouter();
  const href = useLocalizedHref();
  const [confirming, setConfirming] = useState<SaleCodeValues | null>(null);
  const saving = useSaveSaleCode();
  const busy = saving.isPending;
  const [error, setError] = useState<string>();
  const form = useForm<SaleCodeInput, unknown, SaleCodeValues>({
    resolver: zodResolver(saleCodeSchema),
    defaultValues: { code: code?.code ?? '', type: 'set-additional-costs', value: code ? centsToEuro(code.value, i18n.locale) : '' },
  });
  // The fields see the typed text (the schema's output has cents).
  const control = form.control as unknown as Control<SaleCodeInput>;

  const save = async (values: SaleCodeValues) => {
    setError(undefined);
    try {
      await saving.mutateAsync({ id: code?.id ?? null, row: { code: values.code, type: values.type, value: values.value } });
      setConfirming(null);
      await router.navigate({ href: href('/account/admin/sale-codes') });
    } catch (e) {
      const duplicate = (e as { code?: string }).code === '23505';
      const message = duplicate ? t`Diesen Code gibt es schon (Groß- und Kleinschreibung zählt nicht).` : staffErrorMessage(e);
      if (duplicate) {
        setConfirming(null);
        form.setError('code', { message });
      } else setError(message);
    }
  };

  const onSubmit = form.handleSubmit((values) => {
    setError(undefined);
    if (code) void save(values);
    else setConfirming(values);
  });
  const cents = euroToCents(useWatch({ control, name: 'value' }) ?? '');

  return (
    <Form {...form}>
      <form
        onSubmit={onSubmit}
        noValidate
        aria-label={code ? t`Code bearbeiten` : t`Code erstellen`}
        className="flex max-w-md flex-col gap-4"
      >
        <FormField
          control={control}
          name="code"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Code</Trans>
              </FormLabel>
              <FormControl>
                <Input autoCapitalize="characters" className="font-mono uppercase" {...field} />
              </FormControl>
              <FormDescription>
                <Trans>3 bis 40 Zeichen: Buchstaben, Ziffern, - und _. Gespeichert in Großbuchstaben.</Trans>
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={control}
          name="type"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Art</Trans>
              </FormLabel>
              <FormControl>
                <select className="h-10 rounded-md border border-slate-300 bg-white px-3" {...field}>
                  <option value="set-additional-costs">{label.type()}</option>
                </select>
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={control}
          name="value"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Nebenkosten pro Nacht (Euro)</Trans>
              </FormLabel>
              <FormControl>
                <Input inputMode="decimal" {...field} />
              </FormControl>
              <FormDescription>
                {cents !== null && cents <= 100000 ? (
                  label.effect({ value: cents })
                ) : (
                  <Trans>Zum Beispiel 5,00; 0 macht die Nebenkosten frei.</Trans>
                )}
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        {error && !confirming && <FormAlert className="text-sm">{error}</FormAlert>}
        <div className="flex gap-3">
          <Button type="submit" disabled={busy}>
            <Trans>Speichern</Trans>
          </Button>
          <PathLink path="/account/admin/sale-codes" className="self-center text-sm text-primary-dark underline">
            <Trans>Zurück zur Liste</Trans>
          </PathLink>
        </div>
      </form>
      <ConfirmDialog
        open={!!confirming}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={t`Code erstellen`}
        description={t`Möchten Sie den Code ${confirming?.code.trim().toUpperCase() ?? ''} wirklich erstellen? Er gilt ab sofort für alle neuen Buchungen.`}
        confirmLabel={t`Erstellen`}
        busy={busy}
        error={error}
        onConfirm={() => confirming && void save(confirming)}
      />
    </Form>
  );
}
