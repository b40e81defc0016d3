import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormAlert } from '@/components/form-alert';
import { getSupabase } from '@/lib/auth';
import { berlinDay, formatDay } from '@/lib/dates';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { adminOfferKeys, currentTermsQueryOptions, type ContractTermsRow } from '@/features/admin/long-term/api/offers';
import { contractTermsSchema, type ContractTermsValues } from '@/features/admin/long-term/schemas/contract-terms';

/** Admins publish a new version of the /vertrag terms; earlier versions stay as they were accepted. */
export function ContractTermsSection() {
  const { t } = useLingui();
  const terms = useQuery(currentTermsQueryOptions());
  return (
    <section aria-label={t`Vertragsbedingungen`} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="text-lg font-semibold">
        <Trans>Vertragsbedingungen</Trans>
      </h2>
      {terms.error && <FormAlert>{staffErrorMessage(terms.error)}</FormAlert>}
      {terms.data && <ContractTermsForm key={terms.data.version} current={terms.data} />}
    </section>
  );
}

function ContractTermsForm({ current }: { current: ContractTermsRow }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const publish = useMutation({
    mutationFn: async (v: ContractTermsValues) => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('publish_contract_terms', {
        p_body_de: v.bodyDe,
        p_body_en: v.bodyEn,
        p_renews_automatically: v.renewsAutomatically,
      });
      if (error) throw error;
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminOfferKeys.all }),
  });
  const form = useForm<ContractTermsValues>({
    resolver: zodResolver(contractTermsSchema),
    defaultValues: { bodyDe: current.body_de, bodyEn: current.body_en, renewsAutomatically: current.renews_automatically },
  });
  const version = current.version;
  const date = formatDay(berlinDay(current.published_at), i18n.locale);
  const next = version + 1;
  const submit = form.handleSubmit((v) => publish.mutate(v, { onSuccess: () => setConfirming(false) }));
  return (
    <Form {...form}>
      <form noValidate aria-label={t`Vertragsbedingungen`} onSubmit={(e) => e.preventDefault()} className="flex flex-col gap-3">
        <p className="text-sm text-muted-foreground" data-testid="terms-version">
          <Trans>
            In Kraft: Fassung {version} vom {date}. Eine Überschrift beginnt mit „## “, Absätze trennt eine Leerzeile.
          </Trans>
        </p>
        {(['bodyDe', 'bodyEn'] as const).map((name) => (
          <FormField
            key={name}
            control={form.control}
            name={name}
            render={({ field }) => (
              <FormItem className="gap-1">
                <FormLabel>{name === 'bodyDe' ? t`Text (Deutsch)` : t`Text (Englisch)`}</FormLabel>
                <FormControl>
                  <textarea rows={8} className="rounded-md border border-slate-300 p-2 font-mono text-sm" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        ))}
        <FormField
          control={form.control}
          name="renewsAutomatically"
          render={({ field }) => (
            <FormItem className="flex flex-row items-start gap-2">
              <FormControl>
                <Checkbox checked={field.value} onCheckedChange={(v) => field.onChange(v === true)} className="mt-0.5" />
              </FormControl>
              <FormLabel className="font-normal">
                <Trans>
                  Verträge nach dieser Fassung verlängern sich um die nächste Saison, wenn sie nicht bis zur Kündigungsfrist gekündigt
                  werden (die Verlängerung erfasst nur solche Verträge). Der Text muss dasselbe sagen.
                </Trans>
              </FormLabel>
            </FormItem>
          )}
        />
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          trigger={
            <Button type="button" className="self-start">
              <Trans>Neue Fassung veröffentlichen</Trans>
            </Button>
          }
          title={<Trans>Fassung {next} veröffentlichen?</Trans>}
          description={
            <Trans>
              Ab sofort zeigen /vertrag und alle offenen Angebote diese Fassung. Angenommene Verträge behalten ihre Fassung; wer den alten
              Text gerade liest, muss den neuen annehmen.
            </Trans>
          }
          confirmLabel={<Trans>Veröffentlichen</Trans>}
          busy={publish.isPending}
          error={publish.error ? staffErrorMessage(publish.error) : undefined}
          onConfirm={() => void submit()}
        />
        {publish.isSuccess && (
          <p role="status" className="text-sm text-muted-foreground">
            <Trans>Neue Fassung veröffentlicht.</Trans>
          </p>
        )}
      </form>
    </Form>
  );
}
