/** The audit page's URL search params: tiny and free of feature code, since route options load with the first page. */

/** The audited tables (38_audit.sql), as the trail names them. */
export const auditTables = [
  'public.orders',
  'public.payments',
  'public.invoices',
  'public.places',
  'public.sale_codes',
  'public.fair_periods',
  'public.long_term_holders',
  'public.profiles',
  'public.user_roles',
  'public.harbour_settings',
  'private.app_settings',
] as const;

export const auditActorKinds = ['person', 'guest', 'system'] as const;
export type AuditActorKind = (typeof auditActorKinds)[number];

/** The filters, exactly as they stand in the URL (?table=&actor=&kind=&from=&to=&page=). */
export interface AuditSearch {
  table?: string;
  actor?: string;
  kind?: AuditActorKind;
  from?: string;
  to?: string;
  page?: number;
}

/** A real calendar day yyyy-MM-dd (2026-02-30 is not: it would not round-trip). */
const isDay = (v: unknown): v is string => {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

/** validateSearch of /account/admin/audit: unknown or malformed values are dropped, never an error. */
export function parseAuditSearch(search: Record<string, unknown>): AuditSearch {
  const page = Number(search.page);
  const actor = typeof search.actor === 'string' ? search.actor.trim().slice(0, 100) : '';
  return {
    // A table attached later (cash book, invoice documents) is a valid filter too: schema.name.
    table: typeof search.table === 'string' && /^(public|private)\.[a-z_][a-z0-9_]{0,62}$/.test(search.table) ? search.table : undefined,
    actor: actor || undefined,
    kind: auditActorKinds.find((k) => k === search.kind),
    from: isDay(search.from) ? search.from : undefined,
    to: isDay(search.to) ? search.to : undefined,
    page: Number.isInteger(page) && page > 1 && page <= 10000 ? page : undefined,
  };
}
