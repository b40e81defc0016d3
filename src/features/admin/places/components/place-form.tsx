import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Checkbox } from '@/components/ui/checkbox';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { columnsQueryOptions } from '@/features/admin/additional-places';
import { FEATURES, placeSchema, type PlaceValues } from '@/features/admin/places/schemas/place';
import type { AdminPlace } from '@/features/admin/places/api/places';
import { FormAlert } from '@/components/form-alert';

export function useFeatureLabels(): Record<string, string> {
  const { t } = useLingui();
  return { electricity: t`Strom`, water: t`Wasser`, wifi: t`WLAN`, lighting: t`Beleuchtung` };
}

export const placeDefaults = (p?: AdminPlace | null): PlaceValues => ({
  name: p?.name ?? '',
  pier: p?.pier ?? '',
  description: p?.description ?? '',
  description_en: p?.description_en ?? '',
  video_url: p?.video_url ?? '',
  length: p ? String(p.length) : '',
  width: p ? String(p.width) : '',
  one_day: p?.one_day ?? false,
  features: p?.features ?? [],
  x: p?.position ? String(p.position[0]) : '',
  y: p?.position ? String(p.position[1]) : '',
  depth_cm: p?.depth_cm == null ? '' : String(p.depth_cm),
  depth_reference_cm: p?.depth_reference_cm == null ? '' : String(p.depth_reference_cm),
  additional_place_ids: p?.additional_place_ids ?? [],
});

/** Every field of a berth (the image is handled beside it); `children` are the submit controls. */
export function PlaceForm({
  initial,
  onValid,
  children,
  label,
}: {
  initial?: AdminPlace | null;
  onValid: (values: PlaceValues) => void;
  children: ReactNode;
  label: string;
}) {
  const { t } = useLingui();
  const form = useForm<PlaceValues>({ resolver: zodResolver(placeSchema), defaultValues: placeDefaults(initial) });
  const columns = useQuery(columnsQueryOptions());
  const featureLabels = useFeatureLabels();
  const text = (
    name: 'name' | 'pier' | 'video_url' | 'length' | 'width' | 'x' | 'y' | 'depth_cm' | 'depth_reference_cm',
    label: string,
    extra: { inputMode?: 'decimal' | 'numeric'; placeholder?: string } = {},
  ) => (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Input {...field} {...extra} />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
  const area = (name: 'description' | 'description_en', label: string) => (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem className="sm:col-span-2">
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <textarea rows={3} className="rounded-md border border-slate-300 p-2" {...field} />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
  return (
    <Form {...form}>
      <form aria-label={label} noValidate onSubmit={form.handleSubmit(onValid)} className="grid gap-4 sm:grid-cols-2">
        {text('name', t`Name`)}
        {text('pier', t`Steg`)}
        {text('length', t`Länge (m)`, { inputMode: 'decimal' })}
        {text('width', t`Breite (m)`, { inputMode: 'decimal' })}
        {text('depth_cm', t`Wassertiefe (cm, leer: unbekannt)`, { inputMode: 'numeric' })}
        {text('depth_reference_cm', t`gemessen bei Pegel Düsseldorf (cm)`, { inputMode: 'numeric' })}
        {area('description', t`Beschreibung (Deutsch)`)}
        {area('description_en', t`Beschreibung (Englisch)`)}
        <div className="sm:col-span-2">{text('video_url', t`Video (Adresse)`, { placeholder: 'https://' })}</div>
        <FormField
          control={form.control}
          name="one_day"
          render={({ field }) => (
            <FormItem className="flex items-center gap-2 sm:col-span-2">
              <FormControl>
                <Checkbox checked={field.value} onCheckedChange={(v) => field.onChange(v === true)} />
              </FormControl>
              <FormLabel>
                <Trans>Nur für Tagesgäste (Tagesliegeplatz)</Trans>
              </FormLabel>
            </FormItem>
          )}
        />
        <fieldset className="grid gap-2 sm:col-span-2">
          <legend className="mb-1 text-sm font-medium">
            <Trans>Ausstattung</Trans>
          </legend>
          <div className="flex flex-wrap gap-4">
            {FEATURES.map((f) => (
              <FormField
                key={f}
                control={form.control}
                name="features"
                render={({ field }) => (
                  <div className="flex items-center gap-2">
                    <Checkbox
                      id={`feature-${f}`}
                      checked={field.value.includes(f)}
                      onCheckedChange={(v) => field.onChange(v === true ? [...field.value, f] : field.value.filter((x) => x !== f))}
                    />
                    <Label htmlFor={`feature-${f}`}>{featureLabels[f]}</Label>
                  </div>
                )}
              />
            ))}
          </div>
        </fieldset>
        <fieldset className="grid gap-2 sm:col-span-2 sm:grid-cols-2">
          <legend className="mb-1 text-sm font-medium">
            <Trans>Position auf dem Hafenplan (1000 × 600, leer = keine)</Trans>
          </legend>
          {text('x', t`x`, { inputMode: 'decimal' })}
          {text('y', t`y`, { inputMode: 'decimal' })}
        </fieldset>
        <fieldset className="grid gap-2 sm:col-span-2">
          <legend className="mb-1 text-sm font-medium">
            <Trans>Säulen (Strom und Wasser) dieses Liegeplatzes</Trans>
          </legend>
          {columns.isError && (
            <FormAlert className="text-sm">
              <Trans>Die Säulen konnten nicht geladen werden.</Trans>
            </FormAlert>
          )}
          <div className="flex flex-wrap gap-4">
            {(columns.data ?? []).map((c) => (
              <FormField
                key={c.id}
                control={form.control}
                name="additional_place_ids"
                render={({ field }) => (
                  <div className="flex items-center gap-2">
                    <Checkbox
                      id={`column-${c.id}`}
                      checked={field.value.includes(c.id)}
                      onCheckedChange={(v) => field.onChange(v === true ? [...field.value, c.id] : field.value.filter((x) => x !== c.id))}
                    />
                    <Label htmlFor={`column-${c.id}`}>{c.name}</Label>
                  </div>
                )}
              />
            ))}
          </div>
        </fieldset>
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">{children}</div>
      </form>
    </Form>
  );
}
