/**
 * postgres_changes subscription parameters as Supabase Realtime reads them: event (action
 * filter), schema, table, filter (`col=op.value`, `not.` negation, comma-separated AND, quoted
 * values, `in.(a,b)`), select (column list).
 */
export type Filter = [column: string, op: string, value: string, negate: boolean];

export interface SubscriptionParams {
  action: '*' | 'INSERT' | 'UPDATE' | 'DELETE';
  schema: string;
  table: string;
  filters: Filter[];
  select: string[] | null;
}

const OPS = new Set(['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in', 'like', 'ilike', 'is', 'match', 'imatch', 'isdistinct']);

export type ParseResult = { ok: true; params: SubscriptionParams } | { ok: false; error: string };

function inspect(value: unknown): string {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${JSON.stringify(k)} => ${inspect(v)}`);
    return `%{${entries.join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'nil';
}

export function parseSubscription(raw: unknown): ParseResult {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      ok: false,
      error: `No subscription params provided. Please provide at least a \`schema\` or \`table\` to subscribe to: ${inspect(raw)}`,
    };
  }
  const p = raw as Record<string, unknown>;
  const event = typeof p.event === 'string' ? p.event.toUpperCase() : '*';
  const action = (['INSERT', 'UPDATE', 'DELETE'].includes(event) ? event : '*') as SubscriptionParams['action'];

  let select: string[] | null = null;
  if (typeof p.select === 'string') {
    return { ok: false, error: 'Error parsing `select` params: expected a list of column name strings, e.g. select: ["col1", "col2"]' };
  }
  if (Array.isArray(p.select)) {
    const cols = p.select.filter((c): c is string => typeof c === 'string');
    select = cols.length > 0 ? cols : null;
  }

  let schema: string;
  let table: string;
  let filters: Filter[] = [];
  const has = (k: string) => Object.prototype.hasOwnProperty.call(p, k) && p[k] !== undefined;
  if (typeof p.schema === 'string' && typeof p.table === 'string' && typeof p.filter === 'string') {
    const parsed = parseFilters(p.filter);
    if (!parsed.ok) return { ok: false, error: `Error parsing \`filter\` params: ${parsed.error}` };
    [schema, table, filters] = [p.schema, p.table, parsed.filters];
  } else if (typeof p.schema === 'string' && typeof p.table === 'string' && !has('filter')) {
    [schema, table] = [p.schema, p.table];
  } else if (typeof p.schema === 'string' && !has('table') && !has('filter')) {
    [schema, table] = [p.schema, '*'];
  } else if (typeof p.table === 'string' && !has('schema') && !has('filter')) {
    [schema, table] = ['public', p.table];
  } else {
    return {
      ok: false,
      error: `No subscription params provided. Please provide at least a \`schema\` or \`table\` to subscribe to: ${inspect(raw)}`,
    };
  }
  if (select && (schema === '*' || table === '*')) {
    return { ok: false, error: 'Column selection is not supported for wildcard subscriptions. Provide an explicit schema and table name.' };
  }
  return { ok: true, params: { action, schema, table, filters, select } };
}

function parseFilters(filter: string): { ok: true; filters: Filter[] } | { ok: false; error: string } {
  const trimmed = filter.trim();
  if (trimmed === '') return { ok: true, filters: [] };
  const filters: Filter[] = [];
  for (const segment of splitTopLevel(trimmed)) {
    const s = segment.trim();
    if (s === '') return { ok: false, error: 'filter must not contain empty segments (check for extra commas)' };
    const eq = s.indexOf('=');
    if (eq < 0) return { ok: false, error: JSON.stringify([s]) };
    const column = s.slice(0, eq);
    let rest = s.slice(eq + 1);
    let negate = false;
    if (rest.startsWith('not.')) {
      negate = true;
      rest = rest.slice(4);
    }
    const dot = rest.indexOf('.');
    if (dot < 0) return { ok: false, error: JSON.stringify([column, rest]) };
    const op = rest.slice(0, dot);
    const value = rest.slice(dot + 1);
    if (!OPS.has(op)) return { ok: false, error: JSON.stringify([op, value]) };
    if (op === 'in') {
      if (value.length < 2 || !value.startsWith('(') || !value.endsWith(')')) {
        return { ok: false, error: '`in` filter value must be wrapped by parentheses' };
      }
      filters.push([column, op, `{${value.slice(1, -1)}}`, negate]);
    } else {
      filters.push([column, op, unquote(value), negate]);
    }
  }
  return { ok: true, filters };
}

/** Splits on commas outside parentheses and double quotes (a quote opens after `.`, `(` or `,`). */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let depth = 0;
  let quoted = false;
  let prev = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '\\' && i + 1 < text.length) {
        current += ch + text[i + 1];
        i++;
        continue;
      }
      if (ch === '"') quoted = false;
      current += ch;
    } else if (ch === '"' && (prev === '.' || prev === '(' || prev === ',')) {
      quoted = true;
      current += ch;
    } else if (ch === '(') {
      depth++;
      current += ch;
    } else if (ch === ')') {
      depth = Math.max(0, depth - 1);
      current += ch;
    } else if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
      prev = '';
      continue;
    } else {
      current += ch;
    }
    prev = ch;
  }
  parts.push(current);
  return parts;
}

function unquote(value: string): string {
  if (!value.startsWith('"')) return value;
  let out = '';
  for (let i = 1; i < value.length; i++) {
    const ch = value[i];
    if (ch === '\\' && i + 1 < value.length) {
      out += value[i + 1];
      i++;
    } else if (ch === '"') {
      return i === value.length - 1 ? out : value;
    } else {
      out += ch;
    }
  }
  return value;
}

/** Realtime's description of subscription params in its error messages. */
export function describeParams(p: SubscriptionParams): string {
  const filters = `[${p.filters.map(([c, o, v, n]) => `{${JSON.stringify(c)}, ${JSON.stringify(o)}, ${JSON.stringify(v)}, ${n}}`).join(', ')}]`;
  const select = p.select ? JSON.stringify(p.select) : 'nil';
  return `event: ${p.action}, schema: ${p.schema}, table: ${p.table}, filters: ${filters}, select: ${select}`;
}

/** A stable small integer id for a subscription's params (Realtime uses a hash of them too). */
export function paramsId(raw: unknown): number {
  const text = stableJson(raw);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 134217728; // 2^27, the range of Erlang's phash2
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value as object).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
