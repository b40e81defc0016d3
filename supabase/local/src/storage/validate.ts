import { errors } from './errors.ts';

/**
 * The request checks Storage's route schemas make (Fastify/Ajv, coercing query strings), with
 * Ajv's messages ("querystring/quality must be >= 20"), as Storage's InvalidRequest errors.
 */
export function optionalInteger(value: unknown, path: string, bounds: { min?: number; max?: number } = {}): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw errors.invalidRequest(`${path} must be integer`);
  if (bounds.min !== undefined && n < bounds.min) throw errors.invalidRequest(`${path} must be >= ${bounds.min}`);
  if (bounds.max !== undefined && n > bounds.max) throw errors.invalidRequest(`${path} must be <= ${bounds.max}`);
  return n;
}

export function optionalNumber(value: unknown, path: string): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw errors.invalidRequest(`${path} must be number`);
  return n;
}

export function optionalEnum<T extends string>(value: unknown, path: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) throw errors.invalidRequest(`${path} must be equal to one of the allowed values`);
  return value as T;
}

export function optionalString(value: unknown, path: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw errors.invalidRequest(`${path} must be string`);
  return value;
}

export function optionalBoolean(value: unknown, path: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (typeof value !== 'boolean') throw errors.invalidRequest(`${path} must be boolean`);
  return value;
}

export function optionalObject(value: unknown, path: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw errors.invalidRequest(`${path} must be object`);
  return value as Record<string, unknown>;
}
