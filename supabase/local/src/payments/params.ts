/**
 * Request parameters as Stripe reads them: form-encoded bodies (and query strings) with bracket
 * notation (`line_items[0][price_data][unit_amount]=1200`, `metadata[order_id]=…`,
 * `expand[]=payment_intent`), and Stripe's error objects for what does not fit.
 */

export type Params = { [key: string]: ParamValue };
export type ParamValue = string | Params | ParamValue[];

/** An error as Stripe answers it: `{ error: { type, code, message, param, … } }` with its status. */
export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'idempotency_error' | 'card_error' | 'api_error',
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  get body() {
    const error: Record<string, unknown> = { message: this.message, type: this.type };
    if (this.code) {
      error.code = this.code;
      error.doc_url = `https://stripe.com/docs/error-codes/${this.code.replaceAll('_', '-')}`;
    }
    if (this.param) error.param = this.param;
    return { error: { ...error, ...this.extra } };
  }
}

export const invalid = (message: string, param?: string, code?: string) =>
  new StripeError(400, 'invalid_request_error', message, code, param);
export const missing = (param: string) => invalid(`Missing required param: ${param}.`, param, 'parameter_missing');
export const noSuch = (object: string, id: string, param = 'id') =>
  new StripeError(404, 'invalid_request_error', `No such ${object}: '${id}'`, 'resource_missing', param);

/** Parses `a[b][0][c]=v&…` into nested objects; an object whose keys are all indices becomes an array. */
export function parseParams(text: string): Params {
  const root: Params = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const first = rawKey.indexOf('[');
    const head = first < 0 ? rawKey : rawKey.slice(0, first);
    const path = [head];
    if (first >= 0) {
      const rest = rawKey.slice(first);
      const parts = rest.match(/\[[^\]]*\]/g);
      if (!parts || parts.join('') !== rest) throw invalid(`Invalid parameter name: ${rawKey}`, rawKey);
      for (const part of parts) path.push(part.slice(1, -1));
    }
    if (!head) throw invalid(`Invalid parameter name: ${rawKey}`, rawKey);
    let node: Params = root;
    for (let i = 0; i < path.length; i++) {
      let key = path[i];
      const last = i === path.length - 1;
      if (key === '') {
        // `name[]`: the next index of a list.
        key = String(Object.keys(node).length);
      }
      if (last) {
        if (key in node && typeof node[key] !== 'string') throw invalid(`Invalid parameter: ${rawKey} is given twice`, rawKey);
        node[key] = value;
      } else {
        const next = node[key];
        if (next === undefined) node[key] = {};
        else if (typeof next === 'string')
          throw invalid(`Invalid parameter: ${path.slice(0, i + 1).join('.')} is a string and an object`, rawKey);
        node = node[key] as Params;
      }
    }
  }
  return listify(root) as Params;
}

function listify(value: ParamValue): ParamValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const mapped: Params = {};
  for (const k of keys) mapped[k] = listify(value[k]);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => mapped[String(k)]);
  }
  return mapped;
}

/** Reads typed values out of parsed params, throwing Stripe's errors with the param's full name. */
export class Reader {
  private readonly seen = new Set<string>();
  constructor(
    readonly params: Params,
    readonly prefix = '',
  ) {}

  private name(key: string) {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }

  has(key: string) {
    this.seen.add(key);
    return this.params[key] !== undefined;
  }

  string(key: string, options: { required?: boolean; max?: number; allowEmpty?: boolean } = {}): string | undefined {
    this.seen.add(key);
    const value = this.params[key];
    if (value === undefined) {
      if (options.required) throw missing(this.name(key));
      return undefined;
    }
    if (typeof value !== 'string') throw invalid(`Invalid string: ${this.name(key)} must be a string`, this.name(key));
    if (value === '' && !options.allowEmpty) {
      if (options.required) throw missing(this.name(key));
      throw invalid(
        `You passed an empty string for '${this.name(key)}'. We assume empty values are an attempt to unset a parameter; however '${this.name(key)}' cannot be unset. You should remove '${this.name(key)}' from your request or supply a non-empty value.`,
        this.name(key),
        'parameter_invalid_empty',
      );
    }
    if (options.max !== undefined && value.length > options.max) {
      throw invalid(
        `Invalid string: ${value.slice(0, 20)}...; must be at most ${options.max} characters`,
        this.name(key),
        'string_length_exceeds_maximum',
      );
    }
    return value;
  }

  integer(key: string, options: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    const text = this.string(key, { required: options.required });
    if (text === undefined) return undefined;
    if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
      throw invalid(`Invalid integer: ${text}`, this.name(key), 'parameter_invalid_integer');
    }
    const n = Number(text);
    if (options.min !== undefined && n < options.min) {
      throw invalid(`This value must be greater than or equal to ${options.min}.`, this.name(key), 'parameter_invalid_integer');
    }
    if (options.max !== undefined && n > options.max) {
      throw invalid(`This value must be less than or equal to ${options.max}.`, this.name(key), 'parameter_invalid_integer');
    }
    return n;
  }

  enumeration<T extends string>(key: string, allowed: readonly T[], options: { required?: boolean } = {}): T | undefined {
    const value = this.string(key, options);
    if (value === undefined) return undefined;
    if (!allowed.includes(value as T)) {
      throw invalid(`Invalid ${this.name(key)}: must be one of ${allowed.join(', ')}`, this.name(key));
    }
    return value as T;
  }

  object(key: string, options: { required?: boolean } = {}): Reader | undefined {
    this.seen.add(key);
    const value = this.params[key];
    if (value === undefined) {
      if (options.required) throw missing(this.name(key));
      return undefined;
    }
    if (typeof value === 'string' || Array.isArray(value)) {
      if (value === '') return new Reader({}, this.name(key));
      throw invalid(`Invalid object`, this.name(key));
    }
    return new Reader(value, this.name(key));
  }

  list(key: string, options: { required?: boolean } = {}): ParamValue[] | undefined {
    this.seen.add(key);
    const value = this.params[key];
    if (value === undefined) {
      if (options.required) throw missing(this.name(key));
      return undefined;
    }
    if (!Array.isArray(value)) throw invalid(`Invalid array`, this.name(key));
    return value;
  }

  itemName(key: string, index: number) {
    return `${this.name(key)}[${index}]`;
  }

  /** Stripe's metadata rules: at most 50 keys, keys up to 40 and values up to 500 characters. */
  metadata(key = 'metadata'): Record<string, string> | undefined {
    const reader = this.object(key);
    if (!reader) return undefined;
    const entries = Object.entries(reader.params);
    if (entries.length > 50) throw invalid('Invalid metadata: metadata cannot have more than 50 keys', this.name(key));
    const out: Record<string, string> = {};
    for (const [k, v] of entries) {
      if (typeof v !== 'string') throw invalid(`Invalid metadata: values must be strings`, `${this.name(key)}[${k}]`);
      if (k.length > 40) throw invalid(`Metadata keys can have up to 40 characters.`, `${this.name(key)}[${k}]`);
      if (v.length > 500)
        throw invalid(
          `Metadata values can have up to 500 characters, but you passed in a value that is ${v.length} characters.`,
          `${this.name(key)}[${k}]`,
        );
      if (v !== '') out[k] = v;
    }
    return out;
  }

  /** Refuses a parameter that was never read: Stripe's `parameter_unknown`. */
  rejectUnknown(ignored: readonly string[] = []) {
    for (const key of Object.keys(this.params)) {
      if (this.seen.has(key) || ignored.includes(key)) continue;
      throw invalid(`Received unknown parameter: ${this.name(key)}`, this.name(key), 'parameter_unknown');
    }
  }
}
