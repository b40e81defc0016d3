/**
 * PostgREST's URL grammar (select, filters, logic trees, order, columns, on_conflict) parsed
 * into plain data. Nothing here touches SQL: names are checked against the schema cache and
 * values bound as parameters when the query is built (query.ts).
 */
import { parseError } from './errors.ts';

export interface JsonPathStep {
  arrow: '->' | '->>';
  key: string;
  /** A bare integer: an array index. */
  index: boolean;
}
export interface FieldRef {
  name: string;
  path: JsonPathStep[];
}
export type SelectItem =
  | { kind: 'star' }
  | { kind: 'field'; field: FieldRef; alias?: string; cast?: string; aggregate?: string }
  | { kind: 'embed'; name: string; alias?: string; hint?: string; inner: boolean; children: SelectItem[]; spread?: boolean };

export const QUANT_OPS = ['eq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch'] as const;
export const SIMPLE_OPS = ['neq', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj'] as const;
export const FTS_OPS = ['fts', 'plfts', 'phfts', 'wfts'] as const;
export type QuantOp = (typeof QUANT_OPS)[number];
export type SimpleOp = (typeof SIMPLE_OPS)[number];
export type FtsOp = (typeof FTS_OPS)[number];

export type Operation =
  | { op: QuantOp; quant?: 'any' | 'all'; value: string }
  | { op: SimpleOp | 'isdistinct'; value: string }
  | { op: 'in'; values: string[] }
  | { op: 'is'; value: 'null' | 'not_null' | 'true' | 'false' | 'unknown' }
  | { op: FtsOp; config?: string; value: string };

export interface Filter {
  kind: 'filter';
  field: FieldRef;
  negate: boolean;
  operation: Operation;
}
export interface LogicTree {
  kind: 'logic';
  op: 'and' | 'or';
  negate: boolean;
  children: Condition[];
}
export type Condition = Filter | LogicTree;

export interface OrderTerm {
  /** `rel(col)`: a column of an embedded to-one resource. */
  relation?: string;
  field: FieldRef;
  dir?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

const EXPECT_OP = 'expecting "not" or operator (eq, gt, ...)';

class Cursor {
  pos = 0;
  constructor(
    readonly text: string,
    readonly what: string,
  ) {}
  get done() {
    return this.pos >= this.text.length;
  }
  peek(n = 1) {
    return this.text.slice(this.pos, this.pos + n);
  }
  eat(s: string) {
    if (this.text.startsWith(s, this.pos)) {
      this.pos += s.length;
      return true;
    }
    return false;
  }
  fail(expecting: string): never {
    const ch = this.done ? 'end of input' : JSON.stringify(this.text[this.pos]);
    throw parseError(this.what, this.text, this.pos, `unexpected ${ch} ${expecting}`);
  }
  expect(s: string, expecting = `expecting ${JSON.stringify(s)}`) {
    if (!this.eat(s)) this.fail(expecting);
  }
  /** An identifier: "quoted" (with \" escapes) or a run of ordinary characters. */
  ident(stops = ',.:()!"'): string {
    if (this.peek() === '"') {
      this.pos++;
      let out = '';
      while (!this.done && this.peek() !== '"') {
        if (this.peek() === '\\' && this.pos + 1 < this.text.length) this.pos++;
        out += this.text[this.pos++];
      }
      this.expect('"', 'expecting closing quote');
      if (out === '') this.fail('expecting field name');
      return out;
    }
    const start = this.pos;
    while (!this.done && !stops.includes(this.text[this.pos]) && !this.text.startsWith('->', this.pos)) this.pos++;
    const name = this.text.slice(start, this.pos).trim();
    if (name === '') {
      this.pos = start;
      this.fail('expecting field name (* or [a..z0..9_$])');
    }
    return name;
  }
  jsonPath(stops?: string): JsonPathStep[] {
    const path: JsonPathStep[] = [];
    for (;;) {
      let arrow: '->' | '->>';
      if (this.eat('->>')) arrow = '->>';
      else if (this.eat('->')) arrow = '->';
      else return path;
      const key = this.ident(stops);
      path.push({ arrow, key, index: /^-?\d+$/.test(key) });
    }
  }
}

function field(c: Cursor, stops?: string): FieldRef {
  const name = c.ident(stops);
  return { name, path: c.jsonPath(stops) };
}

// ---------------------------------------------------------------- select

export function parseSelect(text: string): SelectItem[] {
  const c = new Cursor(text, 'select parameter');
  if (text.trim() === '') return [{ kind: 'star' }];
  const items = selectList(c);
  if (!c.done) c.fail('expecting "," or end of input');
  return items;
}

function selectList(c: Cursor): SelectItem[] {
  const items: SelectItem[] = [];
  for (;;) {
    items.push(selectItem(c));
    if (!c.eat(',')) return items;
  }
}

const CAST = /^[A-Za-z_][A-Za-z0-9_ ]*(\[\])*/;

function selectItem(c: Cursor): SelectItem {
  if (c.eat('*')) return { kind: 'star' };
  const spread = c.eat('...');
  let alias: string | undefined;
  let name = c.ident();
  if (!spread && c.peek() === ':' && c.peek(2) !== '::') {
    c.pos++;
    alias = name;
    name = c.ident();
  }
  if (spread && c.peek() !== '!' && c.peek() !== '(') c.fail('expecting "(" after the spread resource');
  if (c.peek() === '!' || c.peek() === '(') {
    let hint: string | undefined;
    let inner = false;
    for (let i = 0; i < 2 && c.eat('!'); i++) {
      const p = c.ident();
      if (p === 'inner') inner = true;
      else if (p === 'left') inner = false;
      else hint = p;
    }
    c.expect('(', 'expecting "(" after the embedded resource');
    const children = c.peek() === ')' ? [] : selectList(c);
    c.expect(')', 'expecting ")" or ","');
    return { kind: 'embed', name, alias, hint, inner, children, spread: spread || undefined };
  }
  const path = c.jsonPath();
  // `col.sum()`: an aggregate (PostgREST's db-aggregates-enabled); refused when building
  const agg = /^\.(sum|avg|max|min|count)\(\)/.exec(c.text.slice(c.pos));
  let aggregate: string | undefined;
  if (agg) {
    aggregate = agg[1];
    c.pos += agg[0].length;
  }
  let cast: string | undefined;
  if (c.eat('::')) {
    const m = CAST.exec(c.text.slice(c.pos));
    if (!m) c.fail('expecting a type name');
    cast = m[0].trim();
    c.pos += m[0].length;
  }
  return { kind: 'field', field: { name, path }, alias, cast, aggregate };
}

// ---------------------------------------------------------------- filters

const IS_VALUES = ['null', 'not_null', 'true', 'false', 'unknown'] as const;

/** `[not.]op[(any|all)|(config)].value`: `single` reads the value (all the rest at top level). */
function operation(c: Cursor, single: (c: Cursor) => string): { negate: boolean; operation: Operation } {
  const negate = c.eat('not.');
  const start = c.pos;
  const m = /^[a-z]+/.exec(c.text.slice(c.pos));
  const op = m?.[0] ?? '';
  c.pos += op.length;
  if (op === 'in') {
    c.expect('.', EXPECT_OP);
    return { negate, operation: { op: 'in', values: listValue(c) } };
  }
  if (op === 'is') {
    c.expect('.', EXPECT_OP);
    const v = single(c).toLowerCase();
    if (!(IS_VALUES as readonly string[]).includes(v)) {
      c.pos -= v.length;
      c.fail('expecting isVal: (null, not_null, true, false, unknown)');
    }
    return { negate, operation: { op: 'is', value: v as (typeof IS_VALUES)[number] } };
  }
  if ((FTS_OPS as readonly string[]).includes(op)) {
    let config: string | undefined;
    if (c.eat('(')) {
      const cm = /^[A-Za-z0-9_]+/.exec(c.text.slice(c.pos));
      if (!cm) c.fail('expecting a text search configuration');
      config = cm[0];
      c.pos += config.length;
      c.expect(')');
    }
    c.expect('.', EXPECT_OP);
    return { negate, operation: { op: op as FtsOp, config, value: single(c) } };
  }
  if ((QUANT_OPS as readonly string[]).includes(op)) {
    let quant: 'any' | 'all' | undefined;
    if (c.eat('(any)')) quant = 'any';
    else if (c.eat('(all)')) quant = 'all';
    c.expect('.', EXPECT_OP);
    return { negate, operation: { op: op as QuantOp, quant, value: single(c) } };
  }
  if ((SIMPLE_OPS as readonly string[]).includes(op) || op === 'isdistinct') {
    c.expect('.', EXPECT_OP);
    return { negate, operation: { op: op as SimpleOp, value: single(c) } };
  }
  c.pos = start;
  c.fail(EXPECT_OP);
}

function quoted(c: Cursor): string {
  c.expect('"');
  let out = '';
  while (!c.done && c.peek() !== '"') {
    if (c.peek() === '\\' && c.pos + 1 < c.text.length) c.pos++;
    out += c.text[c.pos++];
  }
  c.expect('"', 'expecting closing quote');
  return out;
}

/** `(a,"b,c",d)`: elements may be quoted with backslash escapes. */
function listValue(c: Cursor): string[] {
  c.expect('(', 'expecting "("');
  const values: string[] = [];
  if (c.eat(')')) return values;
  for (;;) {
    if (c.peek() === '"') values.push(quoted(c));
    else {
      const start = c.pos;
      while (!c.done && c.peek() !== ',' && c.peek() !== ')') c.pos++;
      values.push(c.text.slice(start, c.pos));
    }
    if (c.eat(')')) return values;
    c.expect(',', 'expecting "," or ")"');
  }
}

const rest = (c: Cursor) => {
  const v = c.text.slice(c.pos);
  c.pos = c.text.length;
  return v;
};

/** A value inside a logic tree: quoted, a {pg,array}, or everything up to `,` or `)`. */
function treeValue(c: Cursor): string {
  if (c.peek() === '"') return quoted(c);
  const start = c.pos;
  if (c.peek() === '{' || c.peek() === '[') {
    const close = c.peek() === '{' ? '}' : ']';
    const end = c.text.indexOf(close, c.pos);
    if (end >= 0) c.pos = end + 1;
  }
  let depth = 0;
  while (!c.done) {
    const ch = c.peek();
    if (ch === '(') depth++;
    else if (ch === ')') {
      if (depth === 0) break;
      depth--;
    } else if (ch === ',' && depth === 0) break;
    c.pos++;
  }
  return c.text.slice(start, c.pos);
}

/** A filter from the query string: `col=op.value`. */
export function parseFilterValue(key: string, value: string, fieldRef: FieldRef): Filter {
  const c = new Cursor(value, 'filter');
  const { negate, operation: operationValue } = operation(c, rest);
  if (!c.done) c.fail('expecting end of input');
  return { kind: 'filter', field: fieldRef, negate, operation: operationValue };
}

/** `a.b.c` embed path plus a final field (with a json path) for a filter key. */
export function parseFilterKey(key: string): { path: string[]; field: FieldRef } {
  const c = new Cursor(key, 'tree path');
  const parts: string[] = [c.ident()];
  while (c.eat('.')) parts.push(c.ident());
  const jsonPath = c.jsonPath();
  if (!c.done) c.fail('expecting "." or end of input');
  const name = parts.pop()!;
  return { path: parts, field: { name, path: jsonPath } };
}

/** Embed path of a key like `cities.order`, `cities.limit`, `or`, `cities.not.and`. */
export function splitEmbedKey(key: string, suffixes: string[]): { path: string[]; suffix: string } | undefined {
  for (const s of suffixes) {
    if (key === s) return { path: [], suffix: s };
    if (key.endsWith('.' + s)) {
      const c = new Cursor(key.slice(0, -s.length - 1), 'tree path');
      const parts: string[] = [c.ident()];
      while (c.eat('.')) parts.push(c.ident());
      if (!c.done) c.fail('expecting "." or end of input');
      return { path: parts, suffix: s };
    }
  }
  return undefined;
}

export function parseLogic(op: 'and' | 'or', negate: boolean, value: string): LogicTree {
  const c = new Cursor(`${negate ? 'not.' : ''}${op}${value}`, 'logic tree');
  const tree = logicTree(c);
  if (!c.done) c.fail('expecting end of input');
  return tree;
}

function logicTree(c: Cursor): LogicTree {
  const negate = c.eat('not.');
  let op: 'and' | 'or';
  if (c.eat('and')) op = 'and';
  else if (c.eat('or')) op = 'or';
  else c.fail('expecting "and" or "or"');
  c.expect('(', 'expecting "("');
  const children: Condition[] = [];
  for (;;) {
    const save = c.pos;
    if (/^(not\.)?(and|or)\(/.test(c.text.slice(c.pos))) {
      children.push(logicTree(c));
    } else {
      c.pos = save;
      const f = field(c, ',.:()!"');
      c.expect('.', 'expecting "." after the column');
      const { negate: n, operation: o } = operation(c, treeValue);
      children.push({ kind: 'filter', field: f, negate: n, operation: o });
    }
    if (c.eat(')')) break;
    c.expect(',', 'expecting "," or ")"');
  }
  return { kind: 'logic', op, negate, children };
}

// ---------------------------------------------------------------- order, columns

export function parseOrder(text: string): OrderTerm[] {
  const c = new Cursor(text, 'order');
  const terms: OrderTerm[] = [];
  for (;;) {
    let relation: string | undefined;
    let f = field(c);
    if (c.eat('(')) {
      if (f.path.length) c.fail('expecting "."');
      relation = f.name;
      f = field(c);
      c.expect(')');
    }
    const term: OrderTerm = { relation, field: f };
    while (c.eat('.')) {
      if (c.eat('asc')) term.dir = 'asc';
      else if (c.eat('desc')) term.dir = 'desc';
      else if (c.eat('nullsfirst')) term.nulls = 'first';
      else if (c.eat('nullslast')) term.nulls = 'last';
      else c.fail('expecting "asc", "desc", "nullsfirst" or "nullslast"');
    }
    terms.push(term);
    if (c.done) return terms;
    c.expect(',', 'expecting "," or end of input');
  }
}

export function parseColumns(text: string, what: 'columns' | 'on_conflict'): string[] {
  const c = new Cursor(text, `${what} parameter`);
  const out: string[] = [];
  for (;;) {
    out.push(c.ident());
    if (c.done) return out;
    c.expect(',', 'expecting "," or end of input');
  }
}

/** A non-negative integer query parameter (limit, offset). */
export function parseCount(key: string, value: string): number {
  if (!/^\d+$/.test(value)) {
    throw parseError(`${key} parameter`, value, 0, `unexpected ${JSON.stringify(value[0] ?? '')} expecting digit`);
  }
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw parseError(`${key} parameter`, value, 0, 'number too large');
  return n;
}
