/**
 * The subset of Go's html/template that Supabase auth e-mail templates use, rendered as GoTrue
 * does: `{{ .Token }}`, `{{ .Email }}`, `{{ .SiteURL }}`, `{{ .ConfirmationURL }}`,
 * `{{ .TokenHash }}`, `{{ .RedirectTo }}`, `{{ .NewEmail }}`, `{{ .Data.key }}`, and
 * `{{ if eq A B }}`/`{{ if ne A B }}`/`{{ if A }}` with `{{ else if ... }}`, `{{ else }}`,
 * `{{ end }}`; Go comments and the trim markers `{{- ` / ` -}}`. Anything else is a
 * TemplateError when the template is compiled (at stack start), never a blank mail.
 * Values are HTML-escaped as html/template does.
 */

export class TemplateError extends Error {}

type Arg = { kind: 'field'; path: string[] } | { kind: 'string'; value: string };
type Cond = { op: 'eq' | 'ne'; a: Arg; b: Arg } | { op: 'truthy'; a: Arg };
type Node =
  | { kind: 'text'; text: string }
  | { kind: 'value'; arg: Arg }
  | { kind: 'if'; branches: { cond: Cond; body: Node[] }[]; otherwise: Node[] };

export interface CompiledTemplate {
  render(data: Record<string, unknown>): string;
}

const FIELD = /^\.([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)$/;

function parseArg(token: string, where: string, fields: Set<string>): Arg {
  if (token.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\.)*"$/.test(token)) throw new TemplateError(`${where}: bad string literal ${token}`);
    try {
      return { kind: 'string', value: JSON.parse(token) as string };
    } catch {
      throw new TemplateError(`${where}: bad string literal ${token}`);
    }
  }
  if (token.startsWith('`')) {
    if (!/^`[^`]*`$/.test(token)) throw new TemplateError(`${where}: bad raw string ${token}`);
    return { kind: 'string', value: token.slice(1, -1) };
  }
  const m = FIELD.exec(token);
  if (!m) throw new TemplateError(`${where}: unsupported expression "${token}"`);
  const root = m[1];
  if (!fields.has(root))
    throw new TemplateError(`${where}: unknown field .${root} (available: ${[...fields].map((f) => '.' + f).join(', ')})`);
  const rest = m[2] ? m[2].slice(1).split('.') : [];
  if (rest.length > 0 && root !== 'Data') throw new TemplateError(`${where}: .${root} has no fields`);
  return { kind: 'field', path: [root, ...rest] };
}

/** Splits an action's words, keeping quoted strings whole. */
function words(action: string, where: string): string[] {
  const out: string[] = [];
  const re = /\s*("(?:[^"\\]|\\.)*"|`[^`]*`|[^\s"`]+)/gy;
  let m: RegExpExecArray | null;
  let last = 0;
  while ((m = re.exec(action))) {
    out.push(m[1]);
    last = re.lastIndex;
  }
  if (action.slice(last).trim() !== '') throw new TemplateError(`${where}: cannot parse "${action}"`);
  return out;
}

function parseCond(tokens: string[], where: string, fields: Set<string>): Cond {
  if (tokens[0] === 'eq' || tokens[0] === 'ne') {
    if (tokens.length !== 3) throw new TemplateError(`${where}: ${tokens[0]} needs exactly two arguments`);
    return { op: tokens[0], a: parseArg(tokens[1], where, fields), b: parseArg(tokens[2], where, fields) };
  }
  if (tokens.length !== 1) throw new TemplateError(`${where}: unsupported condition "${tokens.join(' ')}"`);
  return { op: 'truthy', a: parseArg(tokens[0], where, fields) };
}

export function compileTemplate(source: string, name: string, fields: Iterable<string>): CompiledTemplate {
  const allowed = new Set(fields);
  // Tokenise into text and actions, applying trim markers.
  const parts: { text?: string; action?: string; line: number }[] = [];
  const re = /\{\{(-\s)?([\s\S]*?)(\s-)?\}\}/g;
  let pos = 0;
  let m: RegExpExecArray | null;
  let trimNext = false;
  const lineAt = (i: number) => source.slice(0, i).split('\n').length;
  while ((m = re.exec(source))) {
    let text = source.slice(pos, m.index);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (m[1]) text = text.replace(/\s+$/, '');
    if (text) parts.push({ text, line: lineAt(pos) });
    parts.push({ action: m[2].trim(), line: lineAt(m.index) });
    trimNext = Boolean(m[3]);
    pos = re.lastIndex;
  }
  let tail = source.slice(pos);
  if (trimNext) tail = tail.replace(/^\s+/, '');
  if (tail.includes('{{')) throw new TemplateError(`${name}:${lineAt(pos + tail.indexOf('{{'))}: unclosed action`);
  if (tail) parts.push({ text: tail, line: lineAt(pos) });

  // Parse into a tree.
  type Frame = { node: Extract<Node, { kind: 'if' }>; current: Node[]; sawElse: boolean; line: number };
  const root: Node[] = [];
  const stack: Frame[] = [];
  const target = () => (stack.length ? stack[stack.length - 1].current : root);
  for (const part of parts) {
    if (part.text !== undefined) {
      target().push({ kind: 'text', text: part.text });
      continue;
    }
    const where = `${name}:${part.line}`;
    const action = part.action!;
    if (/^\/\*[\s\S]*\*\/$/.test(action)) continue;
    const tokens = words(action, where);
    if (tokens.length === 0) throw new TemplateError(`${where}: empty action`);
    const head = tokens[0];
    if (head === 'if') {
      const node: Extract<Node, { kind: 'if' }> = { kind: 'if', branches: [], otherwise: [] };
      const body: Node[] = [];
      node.branches.push({ cond: parseCond(tokens.slice(1), where, allowed), body });
      target().push(node);
      stack.push({ node, current: body, sawElse: false, line: part.line });
    } else if (head === 'else') {
      const frame = stack[stack.length - 1];
      if (!frame) throw new TemplateError(`${where}: {{ else }} without {{ if }}`);
      if (frame.sawElse) throw new TemplateError(`${where}: {{ else }} after {{ else }}`);
      if (tokens[1] === 'if') {
        const body: Node[] = [];
        frame.node.branches.push({ cond: parseCond(tokens.slice(2), where, allowed), body });
        frame.current = body;
      } else if (tokens.length === 1) {
        frame.sawElse = true;
        frame.current = frame.node.otherwise;
      } else {
        throw new TemplateError(`${where}: unsupported "${action}"`);
      }
    } else if (head === 'end') {
      if (tokens.length !== 1) throw new TemplateError(`${where}: unsupported "${action}"`);
      if (!stack.pop()) throw new TemplateError(`${where}: {{ end }} without {{ if }}`);
    } else if (tokens.length === 1 && head.startsWith('.')) {
      target().push({ kind: 'value', arg: parseArg(head, where, allowed) });
    } else {
      throw new TemplateError(`${where}: unsupported action "{{ ${action} }}" (supported: .Field, .Data.key, if/else/end with eq or ne)`);
    }
  }
  if (stack.length) throw new TemplateError(`${name}:${stack[stack.length - 1].line}: {{ if }} without {{ end }}`);

  const resolve = (arg: Arg, data: Record<string, unknown>): unknown => {
    if (arg.kind === 'string') return arg.value;
    let value: unknown = data;
    for (const key of arg.path) {
      if (value === null || typeof value !== 'object') return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    return value;
  };
  const truthy = (v: unknown) =>
    !(
      v === undefined ||
      v === null ||
      v === false ||
      v === 0 ||
      v === '' ||
      (Array.isArray(v) && v.length === 0) ||
      (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0)
    );
  const test = (cond: Cond, data: Record<string, unknown>) => {
    const a = resolve(cond.a, data);
    if (cond.op === 'truthy') return truthy(a);
    const b = resolve(cond.b, data);
    // Go's eq with a missing value is simply false (no error).
    const equal = a !== undefined && a !== null && b !== undefined && b !== null && a === b;
    return cond.op === 'eq' ? equal : !equal;
  };
  const render = (nodes: Node[], data: Record<string, unknown>): string => {
    let out = '';
    for (const node of nodes) {
      if (node.kind === 'text') out += node.text;
      else if (node.kind === 'value') out += escapeHtml(stringify(resolve(node.arg, data)));
      else {
        const branch = node.branches.find((b) => test(b.cond, data));
        out += render(branch ? branch.body : node.otherwise, data);
      }
    }
    return out;
  };
  return { render: (data) => render(root, data) };
}

function stringify(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** html/template's escaping of text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'\0]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&#34;' : c === "'" ? '&#39;' : '\uFFFD',
  );
}
