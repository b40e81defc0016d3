/**
 * postgres_changes: change capture and delivery. A row trigger on every table of the
 * supabase_realtime publication NOTIFYs each change (sql.ts). Per change, one database call
 * answers, for every distinct filter set and every distinct subscriber claim set, whether the
 * filters match and whether that role with those claims may select the row (RLS decides), so
 * many subscribers stay cheap even on PGlite's single session. DELETE events are filtered on
 * the replica identity columns only and never RLS-checked; with RLS on, their old_record
 * carries only the primary key (as Realtime's walrus does). Subscribing checks a channel's
 * postgres_changes against the database as its role. As Realtime's Extensions.PostgresCdcRls
 * (subscriptions, walrus' apply_rls, the poller's messages).
 */
import { createHash } from 'node:crypto';
import { CHANNEL, SETUP_SQL } from './sql.ts';
import { encodeMessage } from './protocol.ts';
import { describeParams, paramsId, parseSubscription } from './filters.ts';
import type { Binding, Channel, RealtimeCore } from './core.ts';

const MAX_RECORD_BYTES = 1024 * 1024;

interface Change {
  s: string;
  t: string;
  o: 'INSERT' | 'UPDATE' | 'DELETE';
  ts: string;
  r: Record<string, unknown> | null;
  x: Record<string, unknown> | null;
  q?: number;
}

interface CheckResult {
  rls: boolean;
  pk: string[];
  ident: string[];
  cols: Record<string, { name: string; type: string }[]>;
  pk_ok: Record<string, boolean>;
  f: boolean[];
  v: boolean[];
}

const PG_CONDITIONS: Record<string, string> = {
  P0001: 'raise_exception',
  '22P02': 'invalid_text_representation',
  '22007': 'invalid_datetime_format',
  '22008': 'datetime_field_overflow',
  '22003': 'numeric_value_out_of_range',
  '2201B': 'invalid_regular_expression',
  '42704': 'undefined_object',
  '42883': 'undefined_function',
};

const qualified = (schema: string, table: string) => `${schema}.${table}`;
const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export type Changes = Awaited<ReturnType<typeof createChanges>>;

export async function createChanges(core: RealtimeCore) {
  const { ctx, db, log, send } = core;
  // (Re)create the database side only when it changed since this database last saw it.
  const version = createHash('sha256').update(SETUP_SQL).digest('hex').slice(0, 16);
  const seen = await db.query<{ value: string }>(`select value from _supabase_local.meta where key = 'realtime_sql'`);
  if (seen.rows[0]?.value !== version) {
    await db.exec(SETUP_SQL);
    await db.query(
      `insert into _supabase_local.meta (key, value) values ('realtime_sql', $1) on conflict (key) do update set value = excluded.value`,
      [version],
    );
  }
  await db.query(`delete from _supabase_local.realtime_overflow`);
  await db.query(`select _supabase_local.realtime_sync_triggers()`);
  // Compile the check functions now rather than on the first change someone waits for.
  await db.query(
    `select _supabase_local.realtime_check('_supabase_local.realtime_overflow'::regclass, 'INSERT', '{"r": {"id": 1}}',
            '[[["id", "eq", "1", false]]]', '[{"role": "anon", "claims": {}}]')`,
  );

  /** postgres_changes bindings by table ("schema.table"). */
  const byEntity = new Map<string, Set<Binding>>();

  let syncing: Promise<unknown> = Promise.resolve();
  const syncTriggers = () => {
    syncing = syncing
      .then(() => db.query(`select _supabase_local.realtime_sync_triggers()`))
      .catch((error) => log.warn(`realtime: could not install change triggers: ${(error as Error).message}`));
    return syncing;
  };
  const onSchemaChanged = () => void syncTriggers();
  ctx.events.on('schema-changed', onSchemaChanged);

  let changes: Promise<void> = Promise.resolve();
  const unlisten = await db.listen(CHANNEL, (payload) => {
    changes = changes.then(() => processChange(payload)).catch((error) => log.error(`realtime: ${(error as Error).stack ?? error}`));
  });

  async function processChange(payload: string) {
    let text = payload;
    let change = JSON.parse(text) as Change;
    if (change.q !== undefined) {
      const parked = await db.query<{ payload: string }>(
        `delete from _supabase_local.realtime_overflow where id = $1 returning payload::text as payload`,
        [change.q],
      );
      if (!parked.rows[0]) return;
      text = parked.rows[0].payload;
      change = JSON.parse(text) as Change;
    }
    const entity = qualified(change.s, change.t);
    const candidates = [...(byEntity.get(entity) ?? [])].filter(
      (b) => !b.channel.closed && (b.params.action === '*' || b.params.action === change.o),
    );
    if (candidates.length === 0) return;

    const filterSets = new Map<string, number>();
    const claimSets = new Map<string, number>();
    const filterIndex = new Map<Binding, number>();
    const claimIndex = new Map<Channel, number>();
    // Claim sets grouped by role: the RLS statement's plan is reused while the role stays.
    candidates.sort((a, b) => (a.channel.role < b.channel.role ? -1 : a.channel.role > b.channel.role ? 1 : 0));
    for (const b of candidates) {
      if (b.params.filters.length > 0) {
        const key = JSON.stringify(b.params.filters);
        if (!filterSets.has(key)) filterSets.set(key, filterSets.size);
        filterIndex.set(b, filterSets.get(key)!);
      }
      if (!claimIndex.has(b.channel)) {
        const key = JSON.stringify({ role: b.channel.role, claims: b.channel.claims });
        if (!claimSets.has(key)) claimSets.set(key, claimSets.size);
        claimIndex.set(b.channel, claimSets.get(key)!);
      }
    }
    const { rows } = await db.query<{ r: CheckResult }>(
      `select _supabase_local.realtime_check($1::regclass, $2, $3::jsonb, $4::jsonb, $5::jsonb) as r`,
      [
        `${quoteIdent(change.s)}.${quoteIdent(change.t)}`,
        change.o,
        text,
        `[${[...filterSets.keys()].join(',')}]`,
        `[${[...claimSets.keys()].join(',')}]`,
      ],
    );
    const check = rows[0].r;

    // Group the visible bindings by channel (and column selection): one message per group.
    const perChannel = new Map<string, { ch: Channel; ids: number[]; select: string[] | null; error?: string }>();
    const channelKeys = new Map<Channel, number>();
    for (const b of candidates) {
      const ch = b.channel;
      let error: string | undefined;
      if (change.o !== 'DELETE' && check.pk.length === 0) error = 'Error 400: Bad Request, no primary key';
      else if (change.o !== 'DELETE' && check.pk_ok[ch.role] === false) error = 'Error 401: Unauthorized';
      if (!error) {
        const fi = filterIndex.get(b);
        if (fi !== undefined && !check.f[fi]) continue;
        if (change.o !== 'DELETE' && check.rls && !check.v[claimIndex.get(ch)!]) continue;
      }
      if (!channelKeys.has(ch)) channelKeys.set(ch, channelKeys.size);
      const groupKey = `${channelKeys.get(ch)}|${b.params.select?.join(',') ?? '*'}`;
      const entry = perChannel.get(groupKey) ?? { ch, ids: [], select: b.params.select, error };
      if (!entry.ids.includes(b.id)) entry.ids.push(b.id);
      perChannel.set(groupKey, entry);
    }

    // Realtime's limit for one change (poll_max_record_bytes, 1 MB): above it only values of at
    // most 64 bytes are sent, with a 413 error.
    const tooLarge = Buffer.byteLength(text) > MAX_RECORD_BYTES;
    const encoded = new Map<string, string>();
    for (const entry of perChannel.values()) {
      const ch = entry.ch;
      const data = entry.error ? errorData(change, entry.error) : changeData(change, check, ch.role, entry.select, tooLarge);
      const key = `${ch.conn.vsn}|${ch.topic}|${entry.ids.join(',')}|${ch.role}|${entry.select?.join(',') ?? ''}|${entry.error ?? ''}`;
      let frame = encoded.get(key);
      if (!frame) {
        frame = encodeMessage(ch.conn.vsn, {
          join_ref: null,
          ref: null,
          topic: ch.topic,
          event: 'postgres_changes',
          payload: { ids: entry.ids, data },
        });
        encoded.set(key, frame);
      }
      send(ch.conn, frame);
    }
  }

  /**
   * A change a subscriber's role may not be told about (401: no SELECT on the primary key) or
   * that cannot be checked (400: no primary key), as Realtime sends it: apply_rls returns only
   * schema, table and type with the error, and the poller's defaults fill the rest (columns [],
   * record / old_record {}, no commit timestamp). Realtime sends it to every subscriber of that
   * role to the table and action, whatever their filters; RLS is not asked.
   */
  function errorData(change: Change, error: string) {
    const base = { schema: change.s, table: change.t, commit_timestamp: null, type: change.o, columns: [], errors: [error] };
    return change.o === 'UPDATE' ? { ...base, record: {}, old_record: {} } : { ...base, record: {} };
  }

  function changeData(change: Change, check: CheckResult, role: string, select: string[] | null, tooLarge: boolean) {
    const pk = new Set(check.pk);
    const columns = (check.cols[role] ?? []).filter((c) => !select || select.includes(c.name) || pk.has(c.name));
    const allowed = new Set(columns.map((c) => c.name));
    const pick = (row: Record<string, unknown> | null, keep: (name: string) => boolean) => {
      if (!row) return null;
      const out: Record<string, unknown> = {};
      let any = false;
      for (const [k, v] of Object.entries(row)) {
        if (allowed.has(k) && keep(k) && (!tooLarge || Buffer.byteLength(JSON.stringify(v)) <= 64)) {
          out[k] = v;
          any = true;
        }
      }
      return any ? out : null;
    };
    const ident = new Set(check.ident);
    const base = { schema: change.s, table: change.t, commit_timestamp: change.ts, type: change.o, columns };
    const errors = tooLarge ? ['Error 413: Payload Too Large'] : null;
    if (change.o === 'INSERT') return { ...base, record: pick(change.r, () => true) ?? {}, errors };
    if (change.o === 'UPDATE') {
      return { ...base, record: pick(change.r, () => true) ?? {}, old_record: pick(change.x, (k) => ident.has(k)), errors };
    }
    return { ...base, old_record: pick(change.x, (k) => ident.has(k) && (!check.rls || pk.has(k))), errors };
  }

  /** A database failure while subscribing is reported like Realtime's: as the subscription's error. */
  async function subscribeSafely(ch: Channel): Promise<{ bindings: Binding[] } | { error: string }> {
    try {
      return await subscribe(ch);
    } catch (error) {
      log.warn(`realtime: subscribing ${ch.topic} failed: ${(error as Error).message}`);
      return { error: `Unable to subscribe to changes with given parameters. Exception: ${(error as Error).message}` };
    }
  }

  /** Validates the channel's postgres_changes against the database, as its claims' role. */
  async function subscribe(ch: Channel): Promise<{ bindings: Binding[] } | { error: string }> {
    const bindings: Binding[] = [];
    for (const raw of ch.rawChanges as Record<string, unknown>[]) {
      const parsed = parseSubscription(raw);
      if (!parsed.ok) return { error: parsed.error };
      const p = parsed.params;
      const { rows } = await db.query<{ r: { entities?: [string, string][]; error?: string; code?: string; message?: string } }>(
        `select _supabase_local.realtime_subscribe_check($1, $2, $3, $4::jsonb) as r`,
        [ch.role, p.schema, p.table, JSON.stringify(p.filters)],
      );
      const r = rows[0].r;
      if (r.error === 'not_enabled') {
        return {
          error: `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [${describeParams(p)}]`,
        };
      }
      if (r.error) {
        const condition = PG_CONDITIONS[r.code ?? ''] ?? r.code;
        return {
          error:
            `Unable to subscribe to changes with given parameters. An exception happened so please check your connect parameters: ` +
            `[${describeParams(p)}]. Exception: ERROR ${r.code} (${condition}) ${r.message}`,
        };
      }
      bindings.push({
        id: paramsId(raw),
        raw,
        params: p,
        entities: new Set((r.entities ?? []).map(([s, t]) => qualified(s, t))),
        channel: ch,
      });
    }
    return { bindings };
  }

  function register(ch: Channel, bindings: Binding[]) {
    unregister(ch);
    ch.bindings = bindings;
    for (const b of bindings) {
      for (const e of b.entities) {
        let set = byEntity.get(e);
        if (!set) byEntity.set(e, (set = new Set()));
        set.add(b);
      }
    }
  }

  function unregister(ch: Channel) {
    for (const b of ch.bindings) {
      for (const e of b.entities) {
        const set = byEntity.get(e);
        set?.delete(b);
        if (set?.size === 0) byEntity.delete(e);
      }
    }
    ch.bindings = [];
  }

  return {
    subscribeSafely,
    register,
    unregister,
    /** Stops following schema changes (first, on close). */
    detach() {
      ctx.events.off('schema-changed', onSchemaChanged);
    },
    /** Stops listening and waits for the change being delivered (last, on close). */
    async close() {
      await unlisten().catch(() => {});
      await changes.catch(() => {});
      await syncing.catch(() => {});
    },
  };
}
