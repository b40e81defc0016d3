import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { buttonVariants } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RowActions } from '../../shared/row-actions';
import { adminPlacesQueryOptions } from '../api/places';

const size = (n: number, locale: string) => new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(n);

/** All berths with a search; archived ones only on request. */
export function PlacesListPage() {
  const { t, i18n } = useLingui();
  const { data, error, isPending } = useQuery(adminPlacesQueryOptions());
  const [q, setQ] = useState('');
  const [showArchived, setShowArchived] = useState(false);
  const rows = useMemo(() => {
    const term = q.trim().toLowerCase();
    return (data ?? []).filter((p) => (showArchived || !p.archived) && (!term || p.name.toLowerCase().includes(term) || (p.pier ?? '').toLowerCase().includes(term)));
  }, [data, q, showArchived]);

  return (
    <Page title={t`Stellplätze`}>
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1">
          <Label htmlFor="places-search"><Trans>Suche</Trans></Label>
          <Input id="places-search" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder={t`Name oder Steg`} />
        </div>
        <div className="flex items-center gap-2 pb-2">
          <Checkbox id="places-archived" checked={showArchived} onCheckedChange={(v) => setShowArchived(v === true)} />
          <Label htmlFor="places-archived"><Trans>Archivierte anzeigen</Trans></Label>
        </div>
        <div className="ml-auto flex flex-wrap gap-2">
          <Link to="/{-$locale}/account/admin/additional-places" className={buttonVariants({ variant: 'outline' })}><Trans>Säulen</Trans></Link>
          <Link to="/{-$locale}/account/admin/map" className={buttonVariants({ variant: 'outline' })}><Trans>Hafenplan</Trans></Link>
          <Link to="/{-$locale}/account/admin/places/create" className={buttonVariants()}><Trans>Stellplatz erstellen</Trans></Link>
        </div>
      </div>
      {error ? (
        <p role="alert" className="text-red-700"><Trans>Die Stellplätze konnten nicht geladen werden.</Trans></p>
      ) : isPending ? (
        <p><Trans>Lädt…</Trans></p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200">
          <table className="w-full text-left text-sm" aria-label={t`Stellplätze`}>
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className="p-2"><Trans>Name</Trans></th>
                <th scope="col" className="p-2"><Trans>Steg</Trans></th>
                <th scope="col" className="p-2"><Trans>Länge × Breite</Trans></th>
                <th scope="col" className="p-2"><Trans>Tagesplatz</Trans></th>
                <th scope="col" className="p-2"><Trans>Status</Trans></th>
                <th scope="col" className="p-2"><Trans>Aktionen</Trans></th>
              </tr>
            </thead>
            <tbody>
              {rows.map((p) => (
                <tr key={p.id} className="border-t border-slate-100">
                  <th scope="row" className="p-2 font-medium">{p.name}</th>
                  <td className="p-2">{p.pier}</td>
                  <td className="p-2">{size(p.length, i18n.locale)} × {size(p.width, i18n.locale)} m</td>
                  <td className="p-2">{p.one_day ? t`ja` : t`nein`}</td>
                  <td className="p-2">{p.archived ? t`archiviert` : t`aktiv`}</td>
                  <td className="p-2">
                    <RowActions name={p.name} edit={{ to: '/{-$locale}/account/admin/places/$id/edit', params: { id: p.id } }}>
                      <Link to="/{-$locale}/account/admin/places/$id/calendar" params={{ id: p.id }} className={buttonVariants({ size: 'sm', variant: 'outline' })} aria-label={t`Kalender von ${p.name}`}><Trans>Kalender</Trans></Link>
                    </RowActions>
                  </td>
                </tr>
              ))}
              {rows.length === 0 && (
                <tr><td colSpan={6} className="p-3 text-slate-600"><Trans>Keine Stellplätze gefunden.</Trans></td></tr>
              )}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}
