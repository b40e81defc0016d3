import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Section } from '@/components/page';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { saveSepaSettings, sepaSettingsQueryOptions, type SepaSettings } from '@/features/admin/settings/api/sepa';
import { normalizeCreditorId, sepaSettingsSchema, type SepaSettingsValues } from '@/features/admin/settings/schemas/sepa';
import { SaveFooter } from '@/components/save-footer';

type SaveState = { ok: true } | { ok: false; message: string } | undefined;

/**
 * On the settings page: the SEPA creditor identifier printed on every pre-notification, and how
 * many days before a debit the pre-notification goes out (docs/adr/0048). The database checks
 * both again (save_sepa_settings).
 */
export function SepaSection() {
  const { t } = useLingui();
  const { data } = useSuspenseQuery(sepaSettingsQueryOptions());
  const [state, setState] = useState<SaveState>();
  return (
    <Section id="sepa" title={t`SEPA-Lastschrift`} aria-label={t`SEPA-Lastschrift`}>
      <p className="max-w-prose text-sm text-slate-700">
        <Trans>
          Für die Liegeplatzgebühren per Lastschrift: Die Gläubiger-Identifikationsnummer steht auf jeder Vorabankündigung. Nach dem
          SEPA-Regelwerk (SEPA Core Direct Debit Rulebook des European Payments Council) erhält die Kontoinhaberin oder der Kontoinhaber die
          Vorabankündigung mindestens 14 Kalendertage vor dem Einzug; eine kürzere Frist gilt nur, wenn sie mit ihr oder ihm vereinbart ist,
          z. B. in den Vertragsbedingungen. Eine Änderung gilt für Einzüge, die ab jetzt angekündigt werden.
        </Trans>
      </p>
      <SepaForm key={JSON.stringify(data)} settings={data} state={state} setState={setState} />
    </Section>
  );
}

function SepaForm({ settings, state, setState }: { settings: SepaSettings; state: SaveState; setState: (s: SaveState) => void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const form = useForm<SepaSettingsValues>({
    resolver: zodResolver(sepaSettingsSchema()),
    defaultValues: { creditor_id: settings.creditor_id, prenotification_days: String(settings.prenotification_days) },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setState(undefined);
    try {
      const saved = await saveSepaSettings({
        creditor_id: normalizeCreditorId(v.creditor_id),
        prenotification_days: Number(v.prenotification_days),
      });
      // The fields show what is stored (the identifier in capitals without spaces), also when nothing changed.
      form.reset({ creditor_id: saved.creditor_id, prenotification_days: String(saved.prenotification_days) });
      setState({ ok: true });
      await queryClient.invalidateQueries({ queryKey: sepaSettingsQueryOptions().queryKey });
    } catch (e) {
      const hint = (e as { hint?: string }).hint;
      if (hint === 'creditor_id') form.setError('creditor_id', { message: t`Diese Gläubiger-Identifikationsnummer ist nicht gültig` });
      if (hint === 'prenotification_days')
        form.setError('prenotification_days', { message: t`Bitte eine ganze Zahl von Tagen zwischen 1 und 30 eingeben` });
      setState({ ok: false, message: staffErrorMessage(e) });
    }
  });
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate aria-label={t`SEPA-Lastschrift`} className="grid max-w-xl gap-4">
        <FormField
          control={form.control}
          name="creditor_id"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Gläubiger-Identifikationsnummer</Trans>
              </FormLabel>
              <FormControl>
                <Input {...field} autoComplete="off" spellCheck={false} className="font-mono" />
              </FormControl>
              <FormDescription>
                <Trans>
                  Vergibt in Deutschland die Deutsche Bundesbank: 18 Zeichen mit Prüfziffer. DE98ZZZ09999999999 ist die Test-Nummer der
                  Bundesbank und gilt nicht für echte Einzüge.
                </Trans>
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="prenotification_days"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Vorabankündigung (Tage vor dem Einzug)</Trans>
              </FormLabel>
              <FormControl>
                <Input {...field} inputMode="numeric" autoComplete="off" className="w-32" />
              </FormControl>
              <FormDescription>
                <Trans>1 bis 30 Kalendertage; üblich sind 14, weniger nur mit Vereinbarung.</Trans>
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <SaveFooter state={state} submitting={form.formState.isSubmitting}>
          <Trans>SEPA-Einstellungen speichern</Trans>
        </SaveFooter>
      </form>
    </Form>
  );
}
