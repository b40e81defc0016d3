import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { useQueryClient } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Section } from '@/components/page';
import { HarbourStatus } from '@/components/harbour-status';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/input';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { SaveFooter, type SaveState } from '@/components/save-footer';
import { useAppQuery } from '@/lib/query';
import { harbourStatusKeys, harbourStatusQueryOptions, type HarbourStatusKind } from '@/lib/harbour-status';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { messages } from '@/lib/validation';
import { endHarbourStatusOverride, setHarbourStatusOverride } from '@/features/harbour/overview/api/harbour-status-override';

const overrideSchema = () =>
  z.object({
    status: z.enum(['open', 'restricted', 'closed']),
    reason: z
      .string()
      .trim()
      .min(1, { error: () => messages.required() })
      .max(500, { error: () => t`Höchstens 500 Zeichen` }),
  });
type Values = { status: HarbourStatusKind; reason: string };

function useStatusLabels(): Record<HarbourStatusKind, string> {
  const { t } = useLingui();
  return { open: t`offen`, restricted: t`eingeschränkt befahrbar`, closed: t`geschlossen` };
}

/**
 * The harbour status for staff (issue 43, ADR 0053): what the start page shows now, the override
 * in force (with a button to end it, after a question) and a form to set one: open, restricted
 * or closed whatever the gauge says, with a reason the guests read.
 */
export function HarbourStatusOverride() {
  const { t } = useLingui();
  const labels = useStatusLabels();
  const queryClient = useQueryClient();
  const query = useAppQuery(harbourStatusQueryOptions);
  const now = query.data?.find((r) => r.kind === 'now');
  const [state, setState] = useState<SaveState>();
  const [ending, setEnding] = useState<{ open: boolean; busy: boolean; error?: string }>({ open: false, busy: false });
  const form = useForm<Values>({ resolver: zodResolver(overrideSchema()), defaultValues: { status: 'closed', reason: '' } });
  const refresh = () => queryClient.invalidateQueries({ queryKey: harbourStatusKeys.all });
  const onSubmit = form.handleSubmit(async (v) => {
    setState(undefined);
    try {
      await setHarbourStatusOverride(v.status, v.reason);
      setState({ ok: true });
      form.reset({ status: v.status, reason: '' });
      await refresh();
    } catch (e) {
      setState({ ok: false, message: staffErrorMessage(e) });
    }
  });
  const endOverride = async () => {
    setEnding({ open: true, busy: true });
    try {
      await endHarbourStatusOverride();
      setState(undefined);
      await refresh();
      setEnding({ open: false, busy: false });
    } catch (e) {
      setEnding({ open: true, busy: false, error: staffErrorMessage(e) });
    }
  };
  const title = t`Hafenstatus und Ausnahme`;
  return (
    <Section title={title} aria-label={title}>
      <div className="grid max-w-xl gap-4">
        <HarbourStatus />
        {query.data && !now?.level_cm && (
          <p className="text-sm text-slate-600">
            <Trans>Vom Pegel Düsseldorf ist noch kein Stand bekannt.</Trans>
          </p>
        )}
        {now?.override_status && (
          <div
            className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-300 bg-white p-3 text-sm"
            data-testid="harbour-status-override"
          >
            <p className="grow">
              <Trans>
                Ausnahme in Kraft: {labels[now.override_status]}. Grund: {now.override_reason}
              </Trans>
            </p>
            <ConfirmDialog
              open={ending.open}
              onOpenChange={(open) => setEnding({ open, busy: false })}
              trigger={
                <Button type="button" variant="outline">
                  <Trans>Ausnahme beenden</Trans>
                </Button>
              }
              title={<Trans>Ausnahme beenden?</Trans>}
              description={<Trans>Danach gilt wieder der Status aus dem Pegelstand.</Trans>}
              confirmLabel={<Trans>Ausnahme beenden</Trans>}
              onConfirm={() => void endOverride()}
              busy={ending.busy}
              error={ending.error}
            />
          </div>
        )}
        <Form {...form}>
          <form onSubmit={onSubmit} noValidate aria-label={t`Ausnahme festlegen`} className="grid gap-4">
            <FormField
              control={form.control}
              name="status"
              render={({ field }) => (
                <FormItem>
                  <fieldset className="grid gap-2">
                    <legend className="mb-2 text-sm font-medium">
                      <Trans>Status unabhängig vom Pegel</Trans>
                    </legend>
                    <RadioGroup
                      value={field.value}
                      onValueChange={field.onChange}
                      aria-label={t`Status unabhängig vom Pegel`}
                      className="flex flex-wrap gap-2"
                    >
                      {(['open', 'restricted', 'closed'] as const).map((kind) => (
                        <Label
                          key={kind}
                          className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 has-[[data-state=checked]]:border-primary-dark has-[[data-state=checked]]:bg-sky-50"
                        >
                          <RadioGroupItem value={kind} />
                          {labels[kind]}
                        </Label>
                      ))}
                    </RadioGroup>
                  </fieldset>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="reason"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>
                    <Trans>Grund (für die Gäste sichtbar)</Trans>
                  </FormLabel>
                  <FormControl>
                    <Textarea {...field} rows={2} maxLength={500} className="min-h-16" />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <SaveFooter state={state} submitting={form.formState.isSubmitting}>
              <Trans>Ausnahme festlegen</Trans>
            </SaveFooter>
          </form>
        </Form>
      </div>
    </Section>
  );
}
