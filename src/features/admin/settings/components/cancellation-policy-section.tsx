import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Section } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';

import {
  cancellationPolicyKey,
  cancellationPolicySettingsQueryOptions,
  saveCancellationPolicy,
  type CancellationPolicy,
} from '@/features/admin/settings/api/cancellation-policy';
import { cancellationPolicySchema, type CancellationPolicyValues } from '@/features/admin/settings/schemas/cancellation-policy';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

type SaveState = { ok: true } | { ok: false; message: string } | undefined;

/** The cancellation policy on the admin settings page (issue 40): free until some hours before arrival, then a share kept. */
export function CancellationPolicySection() {
  const { t } = useLingui();
  const { data: policy } = useSuspenseQuery(cancellationPolicySettingsQueryOptions());
  const [state, setState] = useState<SaveState>();
  return (
    <Section title={t`Stornobedingungen`} aria-label={t`Stornobedingungen`}>
      <p className="max-w-prose text-sm text-slate-700">
        <Trans>
          Gilt für Stornierungen durch Gäste ab dem Speichern; die Buchungsstrecke, die Preisseite und der Storno-Dialog zeigen sie.
          Storniert das Hafenteam, behält der Hafen nichts.
        </Trans>
      </p>
      {policy ? (
        <CancellationPolicyForm
          key={`${policy.cancel_free_hours}-${policy.cancel_fee_percent}`}
          policy={policy}
          state={state}
          setState={setState}
        />
      ) : (
        <FormAlert>
          <Trans>Die Stornobedingungen konnten nicht geladen werden.</Trans>
        </FormAlert>
      )}
    </Section>
  );
}

function CancellationPolicyForm({
  policy,
  state,
  setState,
}: {
  policy: CancellationPolicy;
  state: SaveState;
  setState: (state: SaveState) => void;
}) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const form = useForm<CancellationPolicyValues>({
    resolver: zodResolver(cancellationPolicySchema),
    defaultValues: { cancel_free_hours: String(policy.cancel_free_hours), cancel_fee_percent: String(policy.cancel_fee_percent) },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setState(undefined);
    try {
      await saveCancellationPolicy({ cancel_free_hours: Number(v.cancel_free_hours), cancel_fee_percent: Number(v.cancel_fee_percent) });
      setState({ ok: true });
      await queryClient.invalidateQueries({ queryKey: cancellationPolicyKey });
    } catch (e) {
      setState({ ok: false, message: staffErrorMessage(e) });
    }
  });
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate aria-label={t`Stornobedingungen`} className="grid gap-4 sm:grid-cols-2">
        <FormField
          control={form.control}
          name="cancel_free_hours"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Kostenlos stornierbar bis (Stunden vor Anreise)</Trans>
              </FormLabel>
              <FormControl>
                <Input {...field} inputMode="numeric" autoComplete="off" className="w-32" />
              </FormControl>
              <FormDescription>
                <Trans>Zum Beispiel 48 für zwei Tage; 0: bis zur Anreise kostenlos.</Trans>
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="cancel_fee_percent"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Danach behält der Hafen (Prozent des Preises)</Trans>
              </FormLabel>
              <FormControl>
                <Input {...field} inputMode="numeric" autoComplete="off" className="w-32" />
              </FormControl>
              <FormDescription>
                <Trans>0 bis 100; der Gast erhält den Rest des Gezahlten zurück.</Trans>
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <div aria-live="polite" className="sm:col-span-2">
          {state?.ok && (
            <p role="status" className="text-sm text-green-800">
              <Trans>Gespeichert.</Trans>
            </p>
          )}
          {state && !state.ok && <FormAlert className="text-sm">{state.message}</FormAlert>}
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={form.formState.isSubmitting}>
            <Trans>Stornobedingungen speichern</Trans>
          </Button>
        </div>
      </form>
    </Form>
  );
}
