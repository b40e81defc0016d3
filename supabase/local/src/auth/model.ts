import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { isIP } from 'node:net';
import type { StackContext } from '../context.ts';
import type { Queryable } from '../db/types.ts';
import { badRequest, clock } from './support.ts';

/** Shared pieces of the auth service: GoTrue's constants, row shapes (userJson, factorJson) and user lookups. */

export const INSTANCE_ID = '00000000-0000-0000-0000-000000000000';
export const AUD = 'authenticated';
export const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);
/** AMRClaim.IsAAL2Claim: the methods that raise a session to aal2. */
export const AAL2_METHODS = new Set(['totp', 'mfa/phone', 'mfa/webauthn']);
export const BCRYPT_COST = 10;
export const MAX_PASSWORD_BYTES = 72;
/** Wrong codes for one address before its outstanding codes are void (GoTrue has none; see docs/adr/0023-local-auth-storage-functions.md). */
export const MAX_FAILED_CODE_ATTEMPTS = 5;

export const CHARSETS: Record<string, string[]> = {
  '': [],
  letters_digits: ['abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'],
  lower_upper_letters_digits: ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'],
  lower_upper_letters_digits_symbols: [
    'abcdefghijklmnopqrstuvwxyz',
    'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
    '0123456789',
    '!@#$%^&*()_+-=[]{};\'\\:"|<>?,./`~',
  ],
};

// Rows come from to_jsonb() of GoTrue's tables; their fields are read by name throughout.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Row = Record<string, any>;

export interface Hook {
  uri: string;
  sql: string;
}

export function parseHook(ctx: StackContext): Hook | undefined {
  const hook = ctx.config.auth.hooks.custom_access_token;
  if (!hook || !hook.enabled) return undefined;
  const m = /^pg-functions:\/\/[^/]+\/([^/]+)\/([^/]+)$/.exec(hook.uri);
  if (!m) {
    throw new Error(`[auth.hook.custom_access_token] uri "${hook.uri}": expected pg-functions://postgres/<schema>/<function>`);
  }
  const ident = (s: string) => '"' + s.replace(/"/g, '""') + '"';
  return { uri: hook.uri, sql: `${ident(m[1])}.${ident(m[2])}` };
}

export const tokenHash = (emailOrPhone: string, otp: string) =>
  createHash('sha224')
    .update(emailOrPhone + otp)
    .digest('hex');

export function generateOtp(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String(randomInt(10));
  return out;
}

export const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export function secureAlphanumeric(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALNUM[bytes[i] % ALNUM.length];
  return out;
}

export function randomPassword(required: string[], length = 33): string {
  let out = required.map((set) => set[randomInt(set.length)]).join('');
  while (out.length < length) out += ALNUM[randomInt(ALNUM.length)];
  return out;
}

export const EMAIL_RE =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export function validateEmail(email: string): string {
  if (email === '') throw badRequest('validation_failed', 'An email address is required');
  if (email.length > 255) throw badRequest('validation_failed', 'An email address is too long');
  if (!EMAIL_RE.test(email)) throw badRequest('validation_failed', `Unable to validate email address: invalid format`);
  return email.toLowerCase();
}

export const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
export const iso = (v: unknown): string | undefined => (typeof v === 'string' && v ? new Date(v).toISOString() : undefined);
export const ms = (v: unknown): number | undefined => (typeof v === 'string' && v ? Date.parse(v) : undefined);

/** auth.identities row (to_jsonb) -> GoTrue's JSON. */
export function identityJson(i: Row) {
  const out: Row = {
    identity_id: i.id,
    id: i.provider_id,
    user_id: i.user_id,
    identity_data: i.identity_data ?? {},
    provider: i.provider,
  };
  if (i.last_sign_in_at) out.last_sign_in_at = iso(i.last_sign_in_at);
  out.created_at = iso(i.created_at);
  out.updated_at = iso(i.updated_at);
  if (i.email) out.email = i.email;
  return out;
}

/** auth.users row (to_jsonb) + identities -> GoTrue's user JSON, field for field. */
export function userJson(u: Row, identities: Row[]) {
  const out: Row = { id: u.id, aud: u.aud ?? '', role: u.role ?? '', email: u.email ?? '' };
  const opt = (name: string, value: unknown) => {
    if (value !== undefined && value !== null && value !== '') out[name] = value;
  };
  opt('email_confirmed_at', iso(u.email_confirmed_at));
  opt('invited_at', iso(u.invited_at));
  out.phone = u.phone ?? '';
  opt('phone_confirmed_at', iso(u.phone_confirmed_at));
  opt('confirmation_sent_at', iso(u.confirmation_sent_at));
  opt('confirmed_at', iso(u.confirmed_at));
  opt('recovery_sent_at', iso(u.recovery_sent_at));
  opt('new_email', u.email_change);
  opt('email_change_sent_at', iso(u.email_change_sent_at));
  opt('new_phone', u.phone_change);
  opt('phone_change_sent_at', iso(u.phone_change_sent_at));
  opt('reauthentication_sent_at', iso(u.reauthentication_sent_at));
  opt('last_sign_in_at', iso(u.last_sign_in_at));
  out.app_metadata = u.raw_app_meta_data ?? {};
  out.user_metadata = u.raw_user_meta_data ?? {};
  out.identities = identities.map(identityJson);
  out.created_at = iso(u.created_at);
  out.updated_at = iso(u.updated_at);
  opt('banned_until', iso(u.banned_until));
  opt('deleted_at', iso(u.deleted_at));
  out.is_anonymous = Boolean(u.is_anonymous);
  // GoTrue's User.Factors (omitempty): auth-js' mfa.listFactors and
  // getAuthenticatorAssuranceLevel read them from the user.
  if (Array.isArray(u.factors) && u.factors.length) out.factors = u.factors.map(factorJson);
  return out;
}

/** auth.mfa_factors row (to_jsonb) -> GoTrue's models.Factor JSON (the secret never leaves). */
export function factorJson(f: Row) {
  const out: Row = { id: f.id, created_at: iso(f.created_at), updated_at: iso(f.updated_at), status: f.status };
  if (f.friendly_name) out.friendly_name = f.friendly_name;
  out.factor_type = f.factor_type;
  out.phone = f.phone ?? '';
  out.last_challenged_at = iso(f.last_challenged_at) ?? null;
  return out;
}

export interface LoadedUser {
  row: Row;
  identities: Row[];
}

export const USER_SELECT = `select to_jsonb(u) || jsonb_build_object('factors',
    coalesce((select jsonb_agg(to_jsonb(f) order by f.created_at, f.id) from auth.mfa_factors f where f.user_id = u.id), '[]'::jsonb)) as u,
  coalesce((select jsonb_agg(to_jsonb(i) order by i.created_at, i.id) from auth.identities i where i.user_id = u.id), '[]'::jsonb) as identities
  from auth.users u`;

export async function findUser(tx: Queryable, where: string, params: unknown[]): Promise<LoadedUser | undefined> {
  const { rows } = await tx.query<{ u: Row; identities: Row[] }>(`${USER_SELECT} where ${where} limit 1`, params);
  return rows[0] ? { row: rows[0].u, identities: rows[0].identities } : undefined;
}

export const byId = (tx: Queryable, id: string) => findUser(tx, 'u.id = $1', [id]);
export const byEmail = (tx: Queryable, email: string) =>
  findUser(tx, `u.instance_id = $1 and lower(u.email) = lower($2) and u.aud = $3 and u.is_sso_user = false`, [INSTANCE_ID, email, AUD]);

export const isConfirmed = (u: Row) => Boolean(u.email_confirmed_at);
export const hasPassword = (u: Row) => typeof u.encrypted_password === 'string' && u.encrypted_password !== '';
export const isBanned = (u: Row) => Boolean(u.banned_until) && (ms(u.banned_until) ?? 0) > clock.now();

export interface RequestInfo {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  ip: string;
  userAgent: string;
}

export const inet = (ip: string) => (isIP(ip) ? ip : '0.0.0.0');
