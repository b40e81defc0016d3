/** A statement of a SQL script with where it starts, for error messages with line numbers. */
export interface Statement {
  text: string;
  offset: number;
}

/**
 * Splits a SQL script into statements at top-level semicolons, as the Supabase CLI does before
 * running a migration: quotes, quoted identifiers, E'' strings, dollar quoting and both comment
 * styles are respected. Empty statements (only whitespace and comments) are dropped.
 */
export function splitStatements(script: string): Statement[] {
  const out: Statement[] = [];
  let start = 0;
  let i = 0;
  const n = script.length;
  let meaningful = false;
  const push = (end: number) => {
    const text = script.slice(start, end);
    if (meaningful) {
      const lead = text.length - text.trimStart().length;
      out.push({ text: text.trim(), offset: start + lead });
    }
    meaningful = false;
  };
  while (i < n) {
    const c = script[i];
    const next = script[i + 1];
    if (c === '-' && next === '-') {
      const end = script.indexOf('\n', i);
      i = end === -1 ? n : end + 1;
      continue;
    }
    if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (script[i] === '/' && script[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (script[i] === '*' && script[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
      continue;
    }
    if (!/\s/.test(c) && c !== ';' && !meaningful) {
      meaningful = true;
      // Statement text starts at its first meaningful character (comments before it are kept out).
      start = i;
    }
    if (c === "'" || c === '"') {
      const escapes = c === "'" && i > 0 && /[eE]/.test(script[i - 1]) && !/\w/.test(script[i - 2] ?? '');
      i++;
      while (i < n) {
        if (escapes && script[i] === '\\') {
          i += 2;
          continue;
        }
        if (script[i] === c) {
          if (script[i + 1] === c) {
            i += 2;
            continue;
          }
          break;
        }
        i++;
      }
      i++;
      continue;
    }
    if (c === '$') {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(script.slice(i));
      if (tag && !/[\w$]/.test(script[i - 1] ?? '')) {
        const close = script.indexOf(tag[0], i + tag[0].length);
        i = close === -1 ? n : close + tag[0].length;
        continue;
      }
    }
    if (c === ';') {
      push(i);
      start = i + 1;
      i++;
      continue;
    }
    i++;
  }
  push(n);
  return out;
}

/** 1-based line and column of a 0-based character offset. */
export function lineAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}
