import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { formatBerlinDateTime } from '@/lib/dates';
import {
  AUDIT_PAGE_SIZE,
  auditActorKinds,
  auditQueryOptions,
  auditTables,
  isAuditRefused,
  type AuditEntry,
  type AuditSearch,
} from '@/features/admin/audit/api/audit';
import { auditColumns, formatAuditValue } from '@/features/admin/audit/lib/values';
import { DatePicker, isDateOrEmpty } from '@/components/ui/date-picker';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

const selectClass = 'h-9 rounded-md border border-slate-300 bg-white px-2';

/** Names of the audited tables; a table attached later shows its own name until it gets one here. */
function useTableLabel() {
  const { t } = useLingui();
  const labels: Record<string, string> = {
    'public.orders': t`Buchungen`,
    'public.payments': t`Zahlungen`,
    'public.invoices': t`Rechnungen`,
    'public.places': t`Liegeplätze`,
    'public.sale_codes': t`Codes`,
    'public.fair_periods': t`Messezeiträume`,
    'public.long_term_holders': t`Langzeitlieger`,
    'public.profiles': t`Benutzerprofile`,
    'public.user_roles': t`Benutzerrollen`,
    'public.harbour_settings': t`Hafeneinstellungen`,
    'private.app_settings': t`Betreibereinstellungen`,
  };
  return (table: string) => labels[table] ?? table;
}

/** Readable names of the columns that change most; others show their database name. */
function useColumnLabel() {
  const { t } = useLingui();
  const labels: Record<string, string> = {
    name: t`Name`,
    width: t`Breite`,
    length: t`Länge`,
    pier: t`Steg`,
    archived: t`Archiviert`,
    one_day: t`Tagesgäste`,
    door_code: t`Türcode`,
    wifi_ssid: t`WLAN-Name`,
    wifi_password: t`WLAN-Passwort`,
    payment_mode_day: t`Zahlungsart Tagesgäste`,
    payment_mode_overnight: t`Zahlungsart Übernachtung`,
    payment_mode_fair: t`Zahlungsart Messe`,
    payment_mode_walk_in: t`Zahlungsart Walk-in`,
    admin: t`Admin`,
    harbor: t`Hafenteam`,
    user: t`Benutzer`,
    active: t`Aktiv`,
    status: t`Status`,
    payment_status: t`Zahlungsstatus`,
    place_id: t`Liegeplatz`,
    value: t`Wert`,
    code: t`Code`,
    amount_cents: t`Betrag (Cent)`,
    price_cents: t`Preis (Cent)`,
    starts_on: t`Beginn`,
    ends_on: t`Ende`,
  };
  return (column: string) => labels[column] ?? column;
}

function ActorCell({ entry }: { entry: AuditEntry }) {
  const { t } = useLingui();
  if (entry.actor && (entry.actor_name || entry.actor_email)) {
    return (
      <span data-testid="audit-actor">
        <span className="font-medium">{entry.actor_name ?? entry.actor_email}</span>
        {entry.actor_name && entry.actor_email && <span className="block break-all text-slate-600">{entry.actor_email}</span>}
      </span>
    );
  }
  const label =
    entry.actor_role === 'guest' || entry.actor_role === 'anon'
      ? t`Gast`
      : entry.actor_role === 'service_role'
        ? t`System (Dienst, z. B. Stripe)`
        : entry.actor_role === 'system'
          ? t`System`
          : t`Gelöschtes Konto`;
  return (
    <span data-testid="audit-actor" className="font-medium">
      {label}
    </span>
  );
}

function Changes({ entry }: { entry: AuditEntry }) {
  const { t, i18n } = useLingui();
  const columnLabel = useColumnLabel();
  const words = { empty: t`(leer)`, yes: t`ja`, no: t`nein` };
  const value = (v: AuditEntry['new_values'], c: string) => formatAuditValue(v?.[c], i18n.locale, words);
  const columns = auditColumns(entry, columnLabel, i18n.locale);
  return (
    <div className="grid gap-1">
      {columns.length > 0 && (
        <dl className="grid gap-1 text-sm">
          {columns.map((c) => (
            <div
              key={c}
              className="grid grid-cols-[minmax(6rem,9rem)_minmax(0,1fr)] gap-x-3 sm:grid-cols-[12rem_minmax(0,1fr)]"
              data-column={c}
            >
              <dt className="font-medium text-slate-700">{columnLabel(c)}</dt>
              <dd className="[overflow-wrap:anywhere]">
                {entry.action === 'update' ? (
                  <>
                    <del className="text-red-800 decoration-red-800/60">{value(entry.old_values, c)}</del>
                    <span aria-hidden> → </span>
                    <span className="sr-only"> {t`geändert in`} </span>
                    <ins className="text-green-900 no-underline">{value(entry.new_values, c)}</ins>
                  </>
                ) : (
                  value(entry.action === 'delete' ? entry.old_values : entry.new_values, c)
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {entry.redacted && entry.redacted.length > 0 && (
        <p className="text-sm text-slate-600">
          <Trans>Persönliche Daten geändert (Werte werden nicht protokolliert): {entry.redacted.map(columnLabel).join(', ')}</Trans>
        </p>
      )}
    </div>
  );
}

/** /account/admin/audit: who changed what and when, newest first; filters and page live in the URL. */
export function AuditPage({ search, onSearch }: { search: AuditSearch; onSearch: (next: (previous: AuditSearch) => AuditSearch) => void }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const tableLabel = useTableLabel();
  const list = useQuery(auditQueryOptions(search));
  const [actor, setActor] = useState(search.actor ?? '');
  const page = search.page ?? 1;
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  // From the URL's current params, not this render's: two quick changes (from, then to) both stay.
  const set = (patch: Partial<AuditSearch>) =>
    onSearch((previous) => ({ ...previous, ...patch, page: 'page' in patch ? patch.page : undefined }));
  const submitActor = (e: FormEvent) => {
    e.preventDefault();
    set({ actor: actor.trim() || undefined });
  };
  const actionLabel = { insert: t`Angelegt`, update: t`Geändert`, delete: t`Gelöscht` };
  const kindLabel = { person: t`Personen mit Konto`, guest: t`Gäste`, system: t`System` };
  const tables = search.table && !(auditTables as readonly string[]).includes(search.table) ? [...auditTables, search.table] : auditTables;

  if (list.isError && isAuditRefused(list.error)) {
    return (
      <Page title={t`Änderungsprotokoll`}>
        <FormAlert box>{t`Das Änderungsprotokoll sehen nur Administratoren. Die Datenbank hat die Anfrage abgelehnt.`}</FormAlert>
      </Page>
    );
  }

  return (
    <Page title={t`Änderungsprotokoll`}>
      <p className="text-sm text-slate-700">
        <Trans>
          Jede Änderung an Buchungen, Zahlungen, Rechnungen, Liegeplätzen, Codes, Benutzern und Einstellungen, von der Datenbank geschrieben
          und nicht änderbar. Zeiten in Berliner Zeit.
        </Trans>
      </p>
      <form
        onSubmit={submitActor}
        role="search"
        aria-label={t`Protokoll filtern`}
        className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4"
      >
        <div className="flex flex-col gap-1 sm:col-span-2">
          <Label htmlFor="audit-actor">
            <Trans>Wer (Name oder E-Mail)</Trans>
          </Label>
          <div className="flex gap-2">
            <Input id="audit-actor" type="search" maxLength={100} value={actor} onChange={(e) => setActor(e.target.value)} />
            <Button type="submit">
              <Trans>Suchen</Trans>
            </Button>
          </div>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="audit-kind">
            <Trans>Art des Akteurs</Trans>
          </Label>
          <select
            id="audit-kind"
            className={selectClass}
            value={search.kind ?? ''}
            onChange={(e) => set({ kind: auditActorKinds.find((k) => k === e.target.value) })}
          >
            <option value="">
              <Trans>Alle</Trans>
            </option>
            {auditActorKinds.map((k) => (
              <option key={k} value={k}>
                {kindLabel[k]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="audit-table">
            <Trans>Bereich</Trans>
          </Label>
          <select
            id="audit-table"
            className={selectClass}
            value={search.table ?? ''}
            onChange={(e) => set({ table: e.target.value || undefined })}
          >
            <option value="">
              <Trans>Alle</Trans>
            </option>
            {tables.map((table) => (
              <option key={table} value={table}>
                {tableLabel(table)}
              </option>
            ))}
          </select>
        </div>
        <div className="grid grid-cols-2 gap-2 sm:col-span-2">
          <div className="flex flex-col gap-1">
            <Label htmlFor="audit-from">
              <Trans>Von</Trans>
            </Label>
            <DatePicker id="audit-from" value={search.from ?? ''} onChange={(v) => isDateOrEmpty(v) && set({ from: v || undefined })} />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="audit-to">
              <Trans>Bis einschließlich</Trans>
            </Label>
            <DatePicker id="audit-to" value={search.to ?? ''} onChange={(v) => isDateOrEmpty(v) && set({ to: v || undefined })} />
          </div>
        </div>
        {(search.table || search.actor || search.kind || search.from || search.to) && (
          <div className="flex items-end sm:col-span-2">
            <Button
              type="button"
              variant="outline"
              onClick={() => {
                setActor('');
                onSearch(() => ({}));
              }}
            >
              <Trans>Filter zurücksetzen</Trans>
            </Button>
          </div>
        )}
      </form>

      {list.isError ? (
        <FormAlert box>
          {staffErrorMessage(list.error, { fallback: msg`Das Protokoll konnte nicht geladen werden. Bitte versuchen Sie es noch einmal.` })}
        </FormAlert>
      ) : list.isPending ? (
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      ) : (
        <>
          <p role="status" className="text-sm text-slate-700" data-testid="audit-total">
            {total === 0 ? (
              <Trans>Keine Einträge gefunden.</Trans>
            ) : page > pages ? (
              <Trans>
                <Plural value={total} one="# Eintrag" other="# Einträge" />; Seite {page} gibt es nicht (nur {pages}).
              </Trans>
            ) : (
              <Trans>
                <Plural value={total} one="# Eintrag" other="# Einträge" /> · Seite {page} von {pages}
              </Trans>
            )}
          </p>
          {list.data.rows.length > 0 && (
            <ol className="grid grid-cols-[minmax(0,1fr)] gap-3" aria-label={t`Einträge`}>
              {list.data.rows.map((entry) => (
                <li
                  key={entry.id}
                  className="grid grid-cols-[minmax(0,1fr)] gap-2 rounded-xl border border-slate-200 bg-white p-3"
                  data-testid="audit-entry"
                  data-table={entry.table_name}
                >
                  <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1 text-sm">
                    <time dateTime={entry.at} className="whitespace-nowrap text-slate-700">
                      {formatBerlinDateTime(entry.at, locale)}
                    </time>
                    <ActorCell entry={entry} />
                    <span className="rounded-full bg-slate-100 px-2 py-0.5 font-medium">{actionLabel[entry.action]}</span>
                    <span>
                      {tableLabel(entry.table_name)}{' '}
                      {entry.table_name === 'public.orders' ? (
                        <Link
                          to="/{-$locale}/account/admin/orders/$id"
                          params={{ id: entry.row_key }}
                          className="break-all text-primary-dark underline underline-offset-4"
                        >
                          {entry.row_key}
                        </Link>
                      ) : (
                        <span className="break-all text-slate-600">{entry.row_key}</span>
                      )}
                    </span>
                  </div>
                  <Changes entry={entry} />
                </li>
              ))}
            </ol>
          )}
          {(pages > 1 || page > 1) && (
            <nav aria-label={t`Seiten`} className="flex flex-wrap items-center gap-3">
              <Button variant="outline" disabled={page <= 1} onClick={() => set({ page: page - 1 > 1 ? page - 1 : undefined })}>
                <Trans>Vorherige Seite</Trans>
              </Button>
              <span className="text-sm">
                <Trans>
                  Seite {page} von {Math.max(page, pages)}
                </Trans>
              </span>
              <Button variant="outline" disabled={page >= pages} onClick={() => set({ page: page + 1 })}>
                <Trans>Nächste Seite</Trans>
              </Button>
            </nav>
          )}
        </>
      )}
    </Page>
  );
}
