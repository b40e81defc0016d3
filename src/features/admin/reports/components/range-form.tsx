import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { rangeSchema, type RangeValues } from '@/features/admin/reports/schemas/range';
import { DatePicker } from '@/components/ui/date-picker';

/** The report period: two Berlin days (inclusive); submitting puts them into the URL. */
export function RangeForm({ from, to, onSubmit }: { from: string; to: string; onSubmit: (values: RangeValues) => void }) {
  const { t } = useLingui();
  const form = useForm<RangeValues>({ resolver: zodResolver(rangeSchema()), defaultValues: { from, to } });
  return (
    <Form {...form}>
      <form aria-label={t`Zeitraum`} noValidate onSubmit={form.handleSubmit(onSubmit)} className="flex flex-wrap items-start gap-3 rounded-lg border border-slate-200 bg-white p-3">
        <FormField
          control={form.control}
          name="from"
          render={({ field }) => (
            <FormItem>
              <FormLabel><Trans>Von</Trans></FormLabel>
              <FormControl><DatePicker className="w-44" {...field} /></FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="to"
          render={({ field }) => (
            <FormItem>
              <FormLabel><Trans>Bis einschließlich</Trans></FormLabel>
              <FormControl><DatePicker className="w-44" {...field} /></FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <Button type="submit" className="mt-7"><Trans>Anzeigen</Trans></Button>
      </form>
    </Form>
  );
}
