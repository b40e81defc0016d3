/**
 * The request body, read by its Content-Type into what a write or a function call takes: JSON,
 * CSV and form-urlencoded (PGRST102 for what does not parse or is not acceptable). As
 * PostgREST's payload handling (ApiRequest/Payload.hs, csvToJson).
 */
import type { IncomingMessage } from 'node:http';
import { readBody } from '../http.ts';
import { apiError, notImplemented } from './errors.ts';

/**
 * The request body by its Content-Type, as PostgREST's getPayload: JSON (also without a
 * Content-Type), CSV (header row, every value a string, NULL for null), and form-urlencoded
 * (every value a string). A raw body for a function's single unnamed parameter (text/plain,
 * text/xml, application/octet-stream) is not implemented; any other type is not acceptable.
 */
export async function readPayload(req: IncomingMessage, allowEmpty = false): Promise<unknown> {
  return (await readPayloadText(req, allowEmpty)).value;
}

/** The body as readPayload reads it, and its text (what PostgREST passes to a single unnamed parameter). */
export async function readPayloadText(req: IncomingMessage, allowEmpty = false): Promise<{ value: unknown; text: string }> {
  const text = (await readBody(req)).toString('utf8');
  return { value: parsePayload(req, text, allowEmpty), text };
}

function parsePayload(req: IncomingMessage, text: string, allowEmpty: boolean): unknown {
  const mime = (req.headers['content-type'] ?? 'application/json').split(';')[0].trim().toLowerCase();
  if (mime === 'text/csv') return csvPayload(text);
  if (mime === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text));
  if (allowEmpty && (mime === 'text/plain' || mime === 'text/xml' || mime === 'application/octet-stream')) {
    throw notImplemented(`a raw ${mime} body for a function with a single unnamed parameter`);
  }
  if (mime !== 'application/json' && mime !== '*/*' && mime !== '') {
    throw apiError(400, 'PGRST102', `Content-Type not acceptable: ${mime}`);
  }
  if (text.trim() === '') {
    if (allowEmpty) return {};
    throw apiError(400, 'PGRST102', 'Empty or invalid json');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw apiError(400, 'PGRST102', 'Empty or invalid json');
  }
}

/** RFC 4180 CSV into objects by the header row (PostgREST's csvToJson: "NULL" is null). */
function csvPayload(text: string): Record<string, string | null>[] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  const endField = () => {
    record.push(field);
    field = '';
  };
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') endField();
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endField();
      records.push(record);
      record = [];
    } else field += ch;
    i++;
  }
  if (quoted) throw apiError(400, 'PGRST102', 'parse error (unexpected end of input in a quoted field)');
  if (field !== '' || record.length) {
    endField();
    records.push(record);
  }
  const [header, ...rows] = records.filter((r) => !(r.length === 1 && r[0] === ''));
  if (!header) return [];
  if (rows.some((r) => r.length !== header.length)) throw apiError(400, 'PGRST102', 'All lines must have same number of fields');
  return rows.map((r) => Object.fromEntries(header.map((h, k) => [h, r[k] === 'NULL' ? null : r[k]])));
}
