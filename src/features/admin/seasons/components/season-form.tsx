import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { DatePicker } from '@/components/ui/date-picker';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { FormAlert } from '@/components/form-alert';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { SEASON_KINDS, type Season } from '@/features/admin/seasons/api/seasons';
import { useAddSeason, useUpdateSeason } from '@/features/admin/seasons/api/add-season';
import { seasonSchema, type SeasonValues } from '@/features/admin/seasons/schemas/season';
import { useSeasonLabels } from '@/features/admin/seasons/components/season-labels';

/**
 * Admins add a season, or edit one (`season`): names always, dates while no contract refers to it
 * (the database refuses otherwise: season_in_use); the kind of a season stays. Two seasons of one
 * kind must not share a day (the database refuses it with a sentence).
 */
export function SeasonForm({ season, onDone }: { season?: Season; onDone?: () => void }) {
  const { t } = useLingui();
  const labels = useSeasonLabels();
  const add = useAddSeason();
  const update = useUpdateSeason();
  const save = season ? update : add;
  const form = useForm<SeasonValues>({
    resolver: zodResolver(seasonSchema),
    defaultValues: season
      ? { name: season.name, nameEn: season.name_en ?? '', kind: season.kind, startsOn: season.starts_on, endsOn: season.ends_on }
      : { name: '', nameEn: '', kind: 'summer', startsOn: '', endsOn: '' },
  });
  const submit = form.handleSubmit((v) => {
    if (season) update.mutate({ ...v, id: season.id }, { onSuccess: () => onDone?.() });
    else add.mutate(v, { onSuccess: () => form.reset({ ...v, name: '', nameEn: '', startsOn: '', endsOn: '' }) });
  });
  const title = season ? t`Saison bearbeiten` : t`Saison anlegen`;
  return (
    <Form {...form}>
      <form
        noValidate
        onSubmit={(e) => void submit(e)}
        aria-label={title}
        className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2"
      >
        <h3 className="text-lg font-semibold sm:col-span-2">{title}</h3>
        {season && (
          <p className="text-sm text-muted-foreground sm:col-span-2">
            <Trans>Die Namen lassen sich immer ändern, die Daten nur, solange sich kein Vertrag auf die Saison bezieht.</Trans>
          </p>
        )}
        <FormField
          control={form.control}
          name="name"
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel>
                <Trans>Name (deutsch)</Trans>
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
          name="nameEn"
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel>
                <Trans>Name (englisch)</Trans>
              </FormLabel>
              <FormControl>
                <Input autoComplete="off" maxLength={100} lang="en" placeholder={t`z. B. Summer 2028`} {...field} />
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
                <select className="h-9 rounded-md border border-slate-300 bg-white px-2 disabled:opacity-70" {...field} disabled={!!season}>
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
        <div className="hidden sm:block" />
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
          <Button type="submit" disabled={save.isPending}>
            {season ? <Trans>Änderungen speichern</Trans> : <Trans>Saison speichern</Trans>}
          </Button>
          {season && (
            <Button type="button" variant="outline" onClick={onDone} disabled={save.isPending}>
              <Trans>Abbrechen</Trans>
            </Button>
          )}
          {add.isSuccess && !season && (
            <p role="status" className="text-sm text-muted-foreground">
              <Trans>Saison gespeichert.</Trans>
            </p>
          )}
        </div>
        {save.error && <FormAlert className="text-sm sm:col-span-2">{staffErrorMessage(save.error)}</FormAlert>}
      </form>
    </Form>
  );
}
