import { useEffect, useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { PathLink, useLocalizedHref } from '@/components/layout/path-link';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input, Textarea } from '@/components/ui/input';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ImageField } from '@/features/admin/shared/image-field';
import { removeImage } from '@/features/admin/shared/image-upload';
import { adminNewsQueryOptions, useSaveNews, type AdminNews } from '@/features/admin/news/api/news';
import { berlinLocalToIso, isoToBerlinLocal, newsSchema, type NewsValues } from '@/features/admin/news/schemas/news';
import { DatePicker } from '@/components/ui/date-picker';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

/** /account/admin/news/create: the form, then the confirmation dialog 'News erstellen'. */
export function NewsCreatePage() {
  const { t } = useLingui();
  const [id] = useState(() => crypto.randomUUID());
  return (
    <Page title={t`News erstellen`}>
      <NewsForm id={id} item={null} />
    </Page>
  );
}

/** /account/admin/news/{id}/edit. */
export function NewsEditPage({ id }: { id: string }) {
  const { t } = useLingui();
  const { data: item } = useSuspenseQuery(adminNewsQueryOptions(id));
  return (
    <Page title={t`News bearbeiten`}>
      {item ? (
        <NewsForm key={item.id} id={item.id} item={item} />
      ) : (
        <FormAlert>
          <Trans>Diese News gibt es nicht (mehr).</Trans>
        </FormAlert>
      )}
    </Page>
  );
}

function NewsForm({ id, item }: { id: string; item: AdminNews | null }) {
  const { t } = useLingui();
  const router = useRouter();
  const href = useLocalizedHref();
  const [uploading, setUploading] = useState(false);
  const [confirming, setConfirming] = useState<NewsValues | null>(null);
  const saving = useSaveNews();
  const busy = saving.isPending;
  const [error, setError] = useState<string>();
  const form = useForm<NewsValues>({
    resolver: zodResolver(newsSchema),
    defaultValues: {
      title: item?.title ?? '',
      titleEn: item?.title_en ?? '',
      shortDescription: item?.short_description ?? '',
      shortDescriptionEn: item?.short_description_en ?? '',
      description: item?.description ?? '',
      descriptionEn: item?.description_en ?? '',
      imagePath: item?.image_path ?? '',
      location: item?.location ?? 'duesseldorf',
      start: item ? isoToBerlinLocal(item.starts_at) : '',
      end: item ? isoToBerlinLocal(item.ends_at) : '',
      dates: (item?.dates ?? []).map((value) => ({ value })),
    },
  });
  const dates = useFieldArray({ control: form.control, name: 'dates' });
  // Images uploaded in this form but not (yet) saved with the news: removed when the form is
  // left without saving, or when a later upload replaces them before saving.
  // (A Set kept in state, never replaced: it is not rendered, only read when saving or leaving.)
  const [unsaved] = useState(() => new Set<string>());
  useEffect(
    () => () => {
      for (const path of unsaved) void removeImage('news-images', path);
      unsaved.clear();
    },
    [unsaved],
  );

  const save = async (values: NewsValues) => {
    setError(undefined);
    try {
      await saving.mutateAsync({
        id,
        row: {
          title: values.title,
          title_en: values.titleEn,
          short_description: values.shortDescription,
          short_description_en: values.shortDescriptionEn,
          description: values.description,
          description_en: values.descriptionEn,
          image_path: values.imagePath || null,
          location: values.location,
          starts_at: berlinLocalToIso(values.start)!,
          ends_at: berlinLocalToIso(values.end)!,
          dates: [...new Set(values.dates.map((d) => d.value))].sort(),
        },
        isNew: !item,
      });
      // A replaced or removed title image goes (a failure there is ignored), and so do uploads
      // that a later one replaced before saving.
      if (item?.image_path && item.image_path !== values.imagePath) await removeImage('news-images', item.image_path);
      unsaved.delete(values.imagePath);
      await Promise.all([...unsaved].map((path) => removeImage('news-images', path)));
      unsaved.clear();
      setConfirming(null);
      await router.navigate({ href: href('/account/admin/news') });
    } catch (e) {
      setError(staffErrorMessage(e));
    }
  };

  const onSubmit = form.handleSubmit((values) => {
    setError(undefined);
    if (item) void save(values);
    else setConfirming(values);
  });

  const text = (name: 'title' | 'titleEn' | 'location', label: string) => (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Input {...field} />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
  const area = (name: 'shortDescription' | 'shortDescriptionEn' | 'description' | 'descriptionEn', label: string, long: boolean) => (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Textarea className={long ? 'min-h-40' : 'min-h-20'} {...field} />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );

  return (
    <Form {...form}>
      <form
        onSubmit={onSubmit}
        noValidate
        aria-label={item ? t`News bearbeiten` : t`News erstellen`}
        className="flex max-w-3xl flex-col gap-5"
      >
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 font-semibold">
            <Trans>Texte</Trans>
          </legend>
          {text('title', t`Titel (Deutsch)`)}
          {text('titleEn', t`Titel (Englisch)`)}
          {area('shortDescription', t`Kurztext (Deutsch)`, false)}
          {area('shortDescriptionEn', t`Kurztext (Englisch)`, false)}
          {area('description', t`Langtext (Deutsch)`, true)}
          {area('descriptionEn', t`Langtext (Englisch)`, true)}
        </fieldset>
        <FormField
          control={form.control}
          name="imagePath"
          render={({ field }) => (
            <ImageField
              bucket="news-images"
              folder={id}
              value={field.value}
              onChange={(path) => {
                if (path) unsaved.add(path);
                field.onChange(path);
              }}
              onUploadingChange={setUploading}
              label={t`Titelbild`}
            />
          )}
        />
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 font-semibold">
            <Trans>Zeitraum und Ort</Trans>
          </legend>
          <FormField
            control={form.control}
            name="start"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Beginn</Trans>
                </FormLabel>
                <FormControl>
                  <Input type="datetime-local" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="end"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Ende</Trans>
                </FormLabel>
                <FormControl>
                  <Input type="datetime-local" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          {text('location', t`Standort`)}
        </fieldset>
        <fieldset className="grid gap-2">
          <legend className="mb-2 font-semibold">
            <Trans>Termine</Trans>
          </legend>
          {dates.fields.length === 0 && (
            <p className="text-sm text-slate-600">
              <Trans>Keine Termine.</Trans>
            </p>
          )}
          <ul className="grid gap-2">
            {dates.fields.map((d, index) => (
              <li key={d.id} className="flex items-start gap-2">
                <FormField
                  control={form.control}
                  name={`dates.${index}.value`}
                  render={({ field }) => (
                    <FormItem className="flex-1">
                      <FormLabel className="sr-only">{t`Termin ${index + 1}`}</FormLabel>
                      <FormControl>
                        <DatePicker {...field} />
                      </FormControl>
                      <FormMessage />
                    </FormItem>
                  )}
                />
                <Button type="button" variant="outline" onClick={() => dates.remove(index)} aria-label={t`Termin ${index + 1} entfernen`}>
                  <Trans>Entfernen</Trans>
                </Button>
              </li>
            ))}
          </ul>
          <div>
            <Button type="button" variant="outline" onClick={() => dates.append({ value: '' })}>
              <Trans>Termin hinzufügen</Trans>
            </Button>
          </div>
        </fieldset>
        {error && !confirming && <FormAlert className="text-sm">{error}</FormAlert>}
        <div className="flex gap-3">
          <Button type="submit" disabled={uploading || busy}>
            <Trans>Speichern</Trans>
          </Button>
          <PathLink path="/account/admin/news" className="self-center text-sm text-primary-dark underline">
            <Trans>Zurück zur Liste</Trans>
          </PathLink>
        </div>
      </form>
      <ConfirmDialog
        open={!!confirming}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={t`News erstellen`}
        description={t`Möchten Sie die News „${confirming?.title ?? ''}“ wirklich erstellen? Sie erscheint im angegebenen Zeitraum auf der Startseite.`}
        confirmLabel={t`Erstellen`}
        busy={busy}
        error={error}
        onConfirm={() => confirming && void save(confirming)}
      />
    </Form>
  );
}
