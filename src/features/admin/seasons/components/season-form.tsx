import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { DatePicker } from '@/components/ui/date-picker';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { FormAlert } from '@/components/form-alert';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { SEASON_KINDS } from '@/features/admin/seasons/api/seasons';
import { useAddSeason } from '@/features/admin/seasons/api/add-season';
import { seasonSchema, type SeasonValues } from '@/features/admin/seasons/schemas/season';
import { useSeasonLabels } from '@/features/admin/seasons/components/season-labels';

/** Admins add a season; two seasons of one kind must not share a day (the database refuses it with a sentence). */
export function SeasonForm() {
  const { t } = useLingui();
  const labels = useSeasonLabels();
  const add = useAddSeason();
  const form = useForm<SeasonValues>({
    resolver: zodResolver(seasonSchema),
    defaultValues: { name: '', kind: 'summer', startsOn: '', endsOn: '' },
  });
  const submit = form.handleSubmit((v) => add.mutate(v, { onSuccess: () => form.reset({ ...v, name: '', startsOn: '', endsOn: '' }) }));
  return (
    <Form {...form}>
      <form
        noValidate
        onSubmit={(e) => void submit(e)}
        aria-label={t`Saison anlegen`}
        className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2"
      >
        <h3 className="text-lg font-semibold sm:col-span-2">
          <Trans>Saison anlegen</Trans>
        </h3>
        <FormField
          control={form.control}
          name="name"
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel>
                <Trans>Name</Trans>
              </FormLabel>
              <FormControl>
                <Input autoComplete="off" maxLength={100} placeholder={t`z. B. Sommer 2028`} {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="kind"
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel>
                <Trans>Art</Trans>
              </FormLabel>
              <FormControl>
                <select className="h-9 rounded-md border border-slate-300 bg-white px-2" {...field}>
                  {SEASON_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {labels.kind(k)}
                    </option>
                  ))}
                </select>
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="startsOn"
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel>
                <Trans>Erster Tag</Trans>
              </FormLabel>
              <FormControl>
                <DatePicker required {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="endsOn"
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel>
                <Trans>Letzter Tag</Trans>
              </FormLabel>
              <FormControl>
                <DatePicker required {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
          <Button type="submit" disabled={add.isPending}>
            <Trans>Saison speichern</Trans>
          </Button>
          {add.isSuccess && (
            <p role="status" className="text-sm text-muted-foreground">
              <Trans>Saison gespeichert.</Trans>
            </p>
          )}
        </div>
        {add.error && <FormAlert className="text-sm sm:col-span-2">{staffErrorMessage(add.error)}</FormAlert>}
      </form>
    </Form>
  );
}
