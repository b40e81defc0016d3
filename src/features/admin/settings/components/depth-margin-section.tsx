import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Section } from '@/components/page';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { numberField } from '@/lib/validation';
import { depthMarginQueryOptions, saveDepthMargin } from '@/features/admin/settings/api/depth-margin';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { SaveFooter } from '@/components/save-footer';

const marginSchema = () =>
  z.object({
    margin: numberField({ min: 0, max: 200 }).refine((v) => /^\d+$/.test(v.trim()), {
      error: () => t`Bitte ganze Zentimeter eingeben`,
    }),
  });

/**
 * The under-keel margin (ADR 0053 "Draught against depth"): the water a berth must leave under a
 * boat's keel at the lowest forecast level of the stay; the search leaves out berths with less.
 */
export function DepthMarginSection() {
  const { t } = useLingui();
  const { data } = useSuspenseQuery(depthMarginQueryOptions());
  const queryClient = useQueryClient();
  const [state, setState] = useState<{ ok: true } | { ok: false; message: string }>();
  const form = useForm<{ margin: string }>({ resolver: zodResolver(marginSchema()), values: { margin: String(data ?? 30) } });
  const onSubmit = form.handleSubmit(async (v) => {
    setState(undefined);
    try {
      await saveDepthMargin(Number(v.margin));
      setState({ ok: true });
      await queryClient.invalidateQueries({ queryKey: depthMarginQueryOptions().queryKey });
    } catch (e) {
      setState({ ok: false, message: staffErrorMessage(e) });
    }
  });
  return (
    <Section title={t`Wasser unter dem Kiel`} aria-label={t`Wasser unter dem Kiel`}>
      <Form {...form}>
        <form onSubmit={onSubmit} noValidate aria-label={t`Wasser unter dem Kiel`} className="grid max-w-xl gap-4">
          <FormField
            control={form.control}
            name="margin"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Sicherheitsabstand (cm)</Trans>
                </FormLabel>
                <FormControl>
                  <Input {...field} inputMode="numeric" autoComplete="off" className="w-32" />
                </FormControl>
                <FormDescription>
                  <Trans>
                    So viel Wasser muss beim niedrigsten vorhergesagten Pegel des Aufenthalts unter dem Kiel bleiben; flachere Liegeplätze
                    zeigt die Suche nicht an. 0 bis 200 cm.
                  </Trans>
                </FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
          <SaveFooter state={state} submitting={form.formState.isSubmitting}>
            <Trans>Sicherheitsabstand speichern</Trans>
          </SaveFooter>
        </form>
      </Form>
    </Section>
  );
}
