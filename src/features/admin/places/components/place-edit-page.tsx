import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { NotFoundPage } from '@/components/errors/not-found-page';
import { Page, Section } from '@/components/page';
import { Button, buttonVariants } from '@/components/ui/button';
import { HolderSection } from '@/features/admin/long-term';
import {
  adminPlaceQueryOptions,
  countPlaceOrders,
  useDeletePlace,
  useSavePlace,
  useSetPlaceArchived,
  type PlaceDeleteError,
  type PlaceSaveError,
} from '@/features/admin/places/api/places';
import { refusalOf } from '@/lib/refused';
import { toPlaceInput, type PlaceValues } from '@/features/admin/places/schemas/place';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PhotosSection } from '@/features/admin/places/components/photos-section';
import { usePlaceSaveMessages } from '@/features/admin/places/components/place-create-page';
import { PlaceForm } from '@/features/admin/places/components/place-form';
import { FormAlert } from '@/components/form-alert';

export function PlaceEditPage({ id }: { id: string }) {
  const { t } = useLingui();
  const { data: place, error, isPending } = useQuery(adminPlaceQueryOptions(id));
  const messages = usePlaceSaveMessages();
  const saving = useSavePlace();
  const saveError = refusalOf<PlaceSaveError>(saving.error);

  if (error)
    return (
      <FormAlert>
        <Trans>Der Liegeplatz konnte nicht geladen werden.</Trans>
      </FormAlert>
    );
  if (isPending)
    return (
      <p>
        <Trans>Lädt…</Trans>
      </p>
    );
  if (!place) return <NotFoundPage />;

  const save = (values: PlaceValues) => saving.mutate({ input: toPlaceInput(values), additionalPlaceIds: values.additional_place_ids, id });

  return (
    <Page title={t`Liegeplatz ${place.name} bearbeiten`}>
      <div className="flex flex-wrap gap-2">
        <Link to="/{-$locale}/account/admin/places" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
          <Trans>Alle Liegeplätze</Trans>
        </Link>
        <Link
          to="/{-$locale}/account/admin/places/$id/calendar"
          params={{ id }}
          className={buttonVariants({ variant: 'outline', size: 'sm' })}
        >
          <Trans>Kalender</Trans>
        </Link>
      </div>
      {place.archived && (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900">
          <Trans>Dieser Liegeplatz ist archiviert: Er erscheint nicht in der Suche und in den Listen.</Trans>
        </p>
      )}
      <PlaceForm key={place.updated_at} initial={place} label={t`Liegeplatz bearbeiten`} onValid={save}>
        <Button type="submit" disabled={saving.isPending}>
          <Trans>Speichern</Trans>
        </Button>
        {saving.isSuccess && (
          <p role="status" className="text-sm text-green-700">
            <Trans>Gespeichert.</Trans>
          </p>
        )}
        {saveError && <FormAlert className="text-sm">{messages[saveError]}</FormAlert>}
      </PlaceForm>
      <PhotosSection placeId={id} />
      <HolderSection placeId={id} placeName={place.name} />
      <DeleteSection id={id} name={place.name} archived={place.archived} />
    </Page>
  );
}

/**
 * Delete: a berth without orders is deleted (its photos first); one with orders cannot
 * be, and the dialog says so and offers archiving instead.
 */
function DeleteSection({ id, name, archived }: { id: string; name: string; archived: boolean }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [orders, setOrders] = useState<number | null>(null);
  const removing = useDeletePlace();
  const archiving = useSetPlaceArchived();
  const busy = removing.isPending || archiving.isPending;
  const [error, setError] = useState<string | null>(null);

  const ask = async () => {
    setError(null);
    try {
      setOrders(await countPlaceOrders(id));
      setOpen(true);
    } catch {
      setError(t`Die Buchungen des Liegeplatzes konnten nicht geprüft werden. Bitte erneut versuchen.`);
    }
  };

  const remove = async () => {
    const failed = await removing.mutateAsync(id).then(
      () => null,
      (e: unknown) => refusalOf<PlaceDeleteError>(e),
    );
    if (failed === 'has_orders') {
      setOrders(Math.max(orders ?? 0, 1));
      return;
    }
    setOpen(false);
    if (failed) return setError(t`Der Liegeplatz konnte nicht gelöscht werden. Bitte erneut versuchen.`);
    await navigate({ to: '/{-$locale}/account/admin/places' });
  };

  const archive = async (value: boolean) => {
    const ok = await archiving.mutateAsync({ id, archived: value }).then(
      () => true,
      () => false,
    );
    setOpen(false);
    if (!ok) return setError(t`Der Liegeplatz konnte nicht geändert werden. Bitte erneut versuchen.`);
  };

  const count = orders ?? 0;
  const hasOrders = count > 0;
  return (
    <Section title={t`Löschen oder archivieren`}>
      <div className="flex flex-wrap gap-2">
        <Button variant="destructive" onClick={() => void ask()}>
          <Trans>Liegeplatz löschen</Trans>
        </Button>
        {archived ? (
          <Button variant="outline" disabled={busy} onClick={() => void archive(false)}>
            <Trans>Wiederherstellen</Trans>
          </Button>
        ) : (
          <Button variant="outline" disabled={busy} onClick={() => void archive(true)}>
            <Trans>Archivieren</Trans>
          </Button>
        )}
      </div>
      {error && <FormAlert>{error}</FormAlert>}
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={hasOrders ? t`Liegeplatz kann nicht gelöscht werden` : t`Liegeplatz löschen?`}
        description={
          hasOrders ? (
            <p>
              <Trans>
                Zu „{name}“ gibt es <Plural value={count} one="# Buchung" other="# Buchungen" />. Ein Liegeplatz mit Buchungen kann nicht
                gelöscht werden, damit die Buchungen nachvollziehbar bleiben. Sie können ihn stattdessen archivieren: Er erscheint dann
                nicht mehr in der Suche und in den Listen, bleibt aber für die Historie erhalten.
              </Trans>
            </p>
          ) : (
            <p>
              <Trans>„{name}“ wird mit seinen Fotos endgültig gelöscht. Das kann nicht rückgängig gemacht werden.</Trans>
            </p>
          )
        }
        confirmLabel={hasOrders ? (archived ? t`Schließen` : t`Archivieren`) : t`Löschen`}
        destructive={!hasOrders}
        busy={busy}
        onConfirm={() => void (hasOrders ? (archived ? Promise.resolve(setOpen(false)) : archive(true)) : remove())}
      />
    </Section>
  );
}
