import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { createBcryptPool } from './bcrypt.ts';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Service, StackContext } from '../context.ts';
import type { Queryable } from '../db/types.ts';
import { isPgError, pgErrorFields } from '../db/types.ts';
import { asPlatformRole } from '../db/request.ts';
import { HttpError, clientIp, readBody } from '../http.ts';
import { loadMailTemplates, type MailType } from './mails.ts';
import { newTotpSecret, otpauthUri, totpValid } from './totp.ts';
import { qrSvg } from './qr.ts';
import {
  AuthError,
  IntervalLimiter,
  Params,
  TokenBucket,
  WeakPasswordError,
  apiVersion,
  badRequest,
  clock,
  databaseUnavailable,
  forbidden,
  internal,
  parseDuration,
  sendError,
  tooMany,
  unprocessable,
} from './support.ts';

export { clock } from './support.ts';

/**
 * GoTrue's behaviour at /auth/v1, as @supabase/auth-js sees it: e-mail/password and anonymous
 * sign-up, password and refresh-token grants (rotation with reuse detection), e-mail codes
 * (otp, verify, recover, resend), the user endpoints, logout scopes, settings, health and the
 * admin user API. All database work runs as supabase_auth_admin in GoTrue's own tables.
 */

const INSTANCE_ID = '00000000-0000-0000-0000-000000000000';
const AUD = 'authenticated';
const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);
/** AMRClaim.IsAAL2Claim: the methods that raise a session to aal2. */
const AAL2_METHODS = new Set(['totp', 'mfa/phone', 'mfa/webauthn']);
const BCRYPT_COST = 10;
const MAX_PASSWORD_BYTES = 72;
/** Wrong codes for one address before its outstanding codes are void (GoTrue has none; see decisions.md). */
export const MAX_FAILED_CODE_ATTEMPTS = 5;

const CHARSETS: Record<string, string[]> = {
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
type Row = Record<string, any>;

interface Hook {
  uri: string;
  sql: string;
}

function parseHook(ctx: StackContext): Hook | undefined {
  const hook = ctx.config.auth.hooks.custom_access_token;
  if (!hook || !hook.enabled) return undefined;
  const m = /^pg-functions:\/\/[^/]+\/([^/]+)\/([^/]+)$/.exec(hook.uri);
  if (!m) {
    throw new Error(`[auth.hook.custom_access_token] uri "${hook.uri}": expected pg-functions://postgres/<schema>/<function>`);
  }
  const ident = (s: string) => '"' + s.replace(/"/g, '""') + '"';
  return { uri: hook.uri, sql: `${ident(m[1])}.${ident(m[2])}` };
}

const tokenHash = (emailOrPhone: string, otp: string) => createHash('sha224').update(emailOrPhone + otp).digest('hex');

function generateOtp(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String(randomInt(10));
  return out;
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
function secureAlphanumeric(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALNUM[bytes[i] % ALNUM.length];
  return out;
}

function randomPassword(required: string[], length = 33): string {
  let out = required.map((set) => set[randomInt(set.length)]).join('');
  while (out.length < length) out += ALNUM[randomInt(ALNUM.length)];
  return out;
}

const EMAIL_RE = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

function validateEmail(email: string): string {
  if (email === '') throw badRequest('validation_failed', 'An email address is required');
  if (email.length > 255) throw badRequest('validation_failed', 'An email address is too long');
  if (!EMAIL_RE.test(email)) throw badRequest('validation_failed', `Unable to validate email address: invalid format`);
  return email.toLowerCase();
}

const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
const iso = (v: unknown): string | undefined => (typeof v === 'string' && v ? new Date(v).toISOString() : undefined);
const ms = (v: unknown): number | undefined => (typeof v === 'string' && v ? Date.parse(v) : undefined);

/** auth.identities row (to_jsonb) -> GoTrue's JSON. */
function identityJson(i: Row) {
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
function userJson(u: Row, identities: Row[]) {
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

interface LoadedUser {
  row: Row;
  identities: Row[];
}

const USER_SELECT = `select to_jsonb(u) || jsonb_build_object('factors',
    coalesce((select jsonb_agg(to_jsonb(f) order by f.created_at, f.id) from auth.mfa_factors f where f.user_id = u.id), '[]'::jsonb)) as u,
  coalesce((select jsonb_agg(to_jsonb(i) order by i.created_at, i.id) from auth.identities i where i.user_id = u.id), '[]'::jsonb) as identities
  from auth.users u`;

async function findUser(tx: Queryable, where: string, params: unknown[]): Promise<LoadedUser | undefined> {
  const { rows } = await tx.query<{ u: Row; identities: Row[] }>(`${USER_SELECT} where ${where} limit 1`, params);
  return rows[0] ? { row: rows[0].u, identities: rows[0].identities } : undefined;
}

const byId = (tx: Queryable, id: string) => findUser(tx, 'u.id = $1', [id]);
const byEmail = (tx: Queryable, email: string) =>
  findUser(tx, `u.instance_id = $1 and lower(u.email) = lower($2) and u.aud = $3 and u.is_sso_user = false`, [INSTANCE_ID, email, AUD]);

const isConfirmed = (u: Row) => Boolean(u.email_confirmed_at);
const hasPassword = (u: Row) => typeof u.encrypted_password === 'string' && u.encrypted_password !== '';
const isBanned = (u: Row) => Boolean(u.banned_until) && (ms(u.banned_until) ?? 0) > clock.now();

interface RequestInfo {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  ip: string;
  userAgent: string;
}

export function createAuthService(ctx: StackContext): Service {
  const cfg = ctx.config.auth;
  const templates = loadMailTemplates(ctx.config, ctx.workdir);
  const hook = parseHook(ctx);
  const required = CHARSETS[cfg.passwordRequirements] ?? cfg.passwordRequirements.split(':').filter(Boolean);
  const autoconfirm = !cfg.email.enableConfirmations;
  const emailEnabled = cfg.email.enableSignup;
  const maxFrequencyMs = parseDuration(cfg.email.maxFrequency, 60_000);
  const otpExpiryMs = cfg.email.otpExpiry * 1000;
  const key = new TextEncoder().encode(ctx.keys.jwtSecret);
  const rl = cfg.rateLimit;
  const limiters = {
    anonymous: new TokenBucket(rl.anonymous_users, rl.anonymous_users / 3600),
    token: new TokenBucket(30, rl.token_refresh / 300),
    verify: new TokenBucket(30, rl.token_verifications / 300),
    otp: new TokenBucket(30, rl.sign_in_sign_ups / 300),
    // GoTrue's FactorChallenge and FactorVerify limiters: MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY
    // (15) a minute per IP, bursts of 30.
    factorChallenge: new TokenBucket(30, (rl.mfa_challenge_and_verify ?? 15) / 60),
    factorVerify: new TokenBucket(30, (rl.mfa_challenge_and_verify ?? 15) / 60),
  };
  const emailLimiter = new IntervalLimiter(rl.email_sent, 3_600_000);
  const failedCodes = new Map<string, number>();
  const bcrypt = createBcryptPool();
  // A hash of a random password at the cost of real ones, made on first use: compared against
  // when there is no real hash, so an unknown address takes as long as a wrong password.
  let dummy: Promise<string> | undefined;
  const dummyHash = () => (dummy ??= bcrypt.hash(randomBytes(24).toString('base64'), BCRYPT_COST));
  const dummyCompare = async (password: string) => {
    await bcrypt.compare(password, await dummyHash()).catch(() => false);
  };

  const db = <T>(fn: (tx: Queryable) => Promise<T>) => asPlatformRole(ctx.db, 'supabase_auth_admin', fn);
  const issuer = () => `${ctx.apiUrl}/auth/v1`;

  const limit = (bucket: TokenBucket, info: RequestInfo) => {
    if (!bucket.take(info.ip)) throw tooMany('over_request_rate_limit', 'Request rate limit reached');
  };

  // ------------------------------------------------------------------ passwords
  function checkPasswordStrength(password: string) {
    if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) {
      throw badRequest('validation_failed', `Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`);
    }
    const reasons: string[] = [];
    const messages: string[] = [];
    if ([...password].length < cfg.minimumPasswordLength) {
      reasons.push('length');
      messages.push(`Password should be at least ${cfg.minimumPasswordLength} characters.`);
    }
    if (required.some((set) => ![...set].some((c) => password.includes(c)))) {
      reasons.push('characters');
      messages.push(`Password should contain at least one character of each: ${required.join(', ')}.`);
    }
    if (reasons.length) throw new WeakPasswordError(messages.join(' '), reasons);
  }

  // ------------------------------------------------------------------ redirects
  const globToRegExp = (glob: string) =>
    new RegExp(
      '^' +
        glob
          .split('**')
          .map((part) => part.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^./]*'))
          .join('.*') +
        '$',
    );
  const allowList = cfg.additionalRedirectUrls.map(globToRegExp);
  function isRedirectValid(target: string): boolean {
    if (!target) return false;
    try {
      const site = new URL(cfg.siteUrl);
      const ref = new URL(target);
      if (site.hostname === ref.hostname) return true;
    } catch {
      return false;
    }
    return allowList.some((re) => re.test(target));
  }
  function referrer(info: RequestInfo, redirectTo?: string): string {
    const candidate = redirectTo ?? info.url.searchParams.get('redirect_to') ?? '';
    if (isRedirectValid(candidate)) return candidate;
    const header = info.req.headers.referer;
    if (typeof header === 'string' && isRedirectValid(header)) return header;
    return cfg.siteUrl;
  }

  // ------------------------------------------------------------------ mail
  async function sendMail(
    type: MailType,
    user: Row,
    opts: { to: string; otp: string; hash: string; verifyType: string; info: RequestInfo; newEmail?: string },
  ) {
    if (rl.email_sent <= 0 || (!autoconfirm && !emailLimiter.allow())) {
      throw tooMany('over_email_send_rate_limit', 'email rate limit exceeded');
    }
    const redirect = referrer(opts.info);
    const confirmationUrl = `${ctx.apiUrl}/auth/v1/verify?token=${encodeURIComponent(opts.hash)}&type=${opts.verifyType}&redirect_to=${encodeURIComponent(redirect)}`;
    const data: Record<string, unknown> = {
      SiteURL: cfg.siteUrl,
      ConfirmationURL: confirmationUrl,
      Email: user.email ?? '',
      Token: opts.otp,
      TokenHash: opts.hash,
      Data: user.raw_user_meta_data ?? {},
      RedirectTo: redirect,
      NewEmail: opts.newEmail ?? user.email_change ?? '',
      SendingTo: opts.to,
    };
    const template = templates[type];
    await ctx.mailer.send({ to: opts.to, subject: template.subject.render(data), html: template.body.render(data) });
  }

  function checkFrequency(sentAt: unknown) {
    const at = ms(sentAt);
    if (at !== undefined && at + maxFrequencyMs > clock.now()) {
      const left = Math.floor((at + maxFrequencyMs - clock.now()) / 1000);
      throw tooMany('over_email_send_rate_limit', `For security purposes, you can only request this after ${left} seconds.`);
    }
  }

  async function saveOneTimeToken(tx: Queryable, userId: string, type: string, hash: string, relatesTo: string) {
    await tx.query(
      `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
       values ($1, $2, $3::auth.one_time_token_type, $4, $5, $6::timestamptz at time zone 'UTC', $6::timestamptz at time zone 'UTC')
       on conflict (user_id, token_type) do update set token_hash = excluded.token_hash, relates_to = excluded.relates_to, updated_at = excluded.updated_at`,
      [randomUUID(), userId, type, hash, relatesTo.toLowerCase(), clock.iso()],
    );
  }

  async function sendConfirmation(tx: Queryable, user: Row, info: RequestInfo) {
    checkFrequency(user.confirmation_sent_at);
    const otp = generateOtp(cfg.email.otpLength);
    const hash = tokenHash(user.email, otp);
    await sendMail('confirmation', user, { to: user.email, otp, hash, verifyType: 'signup', info });
    await tx.query(`update auth.users set confirmation_token = $2, confirmation_sent_at = $3, updated_at = $3 where id = $1`, [user.id, hash, clock.iso()]);
    await saveOneTimeToken(tx, user.id, 'confirmation_token', hash, user.email);
    failedCodes.delete(user.email);
  }

  async function sendRecoveryLike(tx: Queryable, user: Row, info: RequestInfo, type: 'recovery' | 'magic_link') {
    checkFrequency(user.recovery_sent_at);
    const otp = generateOtp(cfg.email.otpLength);
    const hash = tokenHash(user.email, otp);
    await sendMail(type, user, { to: user.email, otp, hash, verifyType: type === 'recovery' ? 'recovery' : 'magiclink', info });
    await tx.query(`update auth.users set recovery_token = $2, recovery_sent_at = $3, updated_at = $3 where id = $1`, [user.id, hash, clock.iso()]);
    await saveOneTimeToken(tx, user.id, 'recovery_token', hash, user.email);
    failedCodes.delete(user.email);
  }

  async function sendEmailChange(tx: Queryable, user: Row, newEmail: string, info: RequestInfo) {
    checkFrequency(user.email_change_sent_at);
    const otpNew = generateOtp(cfg.email.otpLength);
    const hashNew = tokenHash(newEmail, otpNew);
    let otpCurrent = '';
    let hashCurrent = '';
    if (cfg.email.doubleConfirmChanges && user.email) {
      otpCurrent = generateOtp(cfg.email.otpLength);
      hashCurrent = tokenHash(user.email, otpCurrent);
    }
    const withChange = { ...user, email_change: newEmail };
    await sendMail('email_change', withChange, { to: newEmail, otp: otpNew, hash: hashNew, verifyType: 'email_change', info, newEmail });
    if (hashCurrent) {
      await sendMail('email_change', withChange, { to: user.email, otp: otpCurrent, hash: hashCurrent, verifyType: 'email_change', info, newEmail });
    }
    await tx.query(
      `update auth.users set email_change = $2, email_change_token_new = $3, email_change_token_current = $4,
              email_change_confirm_status = 0, email_change_sent_at = $5, updated_at = $5 where id = $1`,
      [user.id, newEmail, hashNew, hashCurrent, clock.iso()],
    );
    if (hashCurrent) await saveOneTimeToken(tx, user.id, 'email_change_token_current', hashCurrent, user.email);
    await saveOneTimeToken(tx, user.id, 'email_change_token_new', hashNew, newEmail);
    failedCodes.delete(newEmail);
    if (user.email) failedCodes.delete(user.email);
  }

  // ------------------------------------------------------------------ users
  async function insertUser(
    tx: Queryable,
    u: { id?: string; email: string | null; passwordHash: string; userMeta: Row; appMeta: Row; anonymous: boolean; role?: string },
  ): Promise<Row> {
    const id = u.id ?? randomUUID();
    const now = clock.iso();
    await tx.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, raw_app_meta_data, raw_user_meta_data,
          created_at, updated_at, is_anonymous, is_super_admin, confirmation_token, recovery_token, email_change_token_new,
          email_change, email_change_token_current, reauthentication_token, phone_change, phone_change_token)
       values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $9, $10, null, '', '', '', '', '', '', '', '')`,
      [INSTANCE_ID, id, AUD, u.role ?? AUD, u.email, u.passwordHash, JSON.stringify(u.appMeta), JSON.stringify(u.userMeta), now, u.anonymous],
    );
    return (await byId(tx, id))!.row;
  }

  async function createEmailIdentity(tx: Queryable, user: Row, email: string, extra: Row = {}, verified = false) {
    const now = clock.iso();
    const data: Row = { sub: user.id, email, email_verified: verified, phone_verified: false };
    for (const [k, v] of Object.entries(extra)) if (!(k in data)) data[k] = v;
    await tx.query(
      `insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
       values ($1, $2, $3, $4::jsonb, 'email', $5, $5, $5)`,
      [randomUUID(), user.id, user.id, JSON.stringify(data), now],
    );
  }

  async function updateMeta(tx: Queryable, userId: string, column: 'raw_user_meta_data' | 'raw_app_meta_data', updates: Row) {
    const set: Row = {};
    const remove: string[] = [];
    for (const [k, v] of Object.entries(updates)) {
      if (v === null || v === undefined) remove.push(k);
      else set[k] = v;
    }
    await tx.query(
      `update auth.users set ${column} = (coalesce(${column}, '{}'::jsonb) - $3::text[]) || $2::jsonb, updated_at = $4 where id = $1`,
      [userId, JSON.stringify(set), remove, clock.iso()],
    );
  }

  async function confirmUser(tx: Queryable, userId: string) {
    await tx.query(`update auth.users set confirmation_token = '', email_confirmed_at = $2, updated_at = $2 where id = $1`, [userId, clock.iso()]);
    await updateMeta(tx, userId, 'raw_user_meta_data', { email_verified: true });
    await tx.query(`delete from auth.one_time_tokens where user_id = $1`, [userId]);
  }

  async function updateProviders(tx: Queryable, userId: string) {
    const { rows } = await tx.query<{ provider: string }>(
      `select provider from auth.identities where user_id = $1 group by provider order by min(created_at), provider`,
      [userId],
    );
    const providers = rows.map((r) => r.provider);
    const payload: Row = { providers };
    if (providers.length) payload.provider = providers[0];
    await updateMeta(tx, userId, 'raw_app_meta_data', payload);
  }

  async function clearTokens(tx: Queryable, userId: string) {
    await tx.query(
      `update auth.users set confirmation_token = '', recovery_token = '', email_change_token_new = '', email_change_token_current = '',
              reauthentication_token = '' where id = $1`,
      [userId],
    );
    await tx.query(`delete from auth.one_time_tokens where user_id = $1`, [userId]);
  }

  // ------------------------------------------------------------------ tokens and sessions
  /** GoTrue's Session.CalculateAALAndAMR: the session's mfa_amr_claims, newest first. */
  async function amrFor(tx: Queryable, sessionId: string) {
    const claims = await tx.query<{ method: string; ts: string }>(
      `select authentication_method as method, floor(extract(epoch from updated_at))::bigint::text as ts
         from auth.mfa_amr_claims where session_id = $1 order by updated_at desc, authentication_method`,
      [sessionId],
    );
    if (claims.rows.length) return claims.rows.map((r) => ({ method: r.method, timestamp: Number(r.ts) }));
    // Sessions from before the stack kept amr claims: their logins in the audit log.
    const { rows } = await tx.query<{ method: string; ts: string }>(
      `select payload -> 'traits' ->> 'authentication_method' as method, floor(extract(epoch from max(created_at)))::bigint::text as ts
         from auth.audit_log_entries
        where payload ->> 'action' = 'login' and payload -> 'traits' ->> 'session_id' = $1
        group by 1 order by 2 desc`,
      [sessionId],
    );
    return rows.map((r) => ({ method: r.method, timestamp: Number(r.ts) }));
  }

  async function accessToken(tx: Queryable, user: Row, sessionId: string, method: string, info: RequestInfo) {
    const now = Math.floor(clock.now() / 1000);
    const exp = now + cfg.jwtExpiry;
    const amr = await amrFor(tx, sessionId);
    let claims: Row = {
      iss: issuer(),
      sub: user.id,
      aud: user.aud || AUD,
      exp,
      iat: now,
      email: user.email ?? '',
      phone: user.phone ?? '',
      app_metadata: user.raw_app_meta_data ?? {},
      user_metadata: user.raw_user_meta_data ?? {},
      role: user.role ?? '',
      aal: amr.some((a) => AAL2_METHODS.has(a.method)) ? 'aal2' : 'aal1',
      amr,
      session_id: sessionId,
      is_anonymous: Boolean(user.is_anonymous),
    };
    if (claims.amr.length === 0) delete claims.amr;
    if (hook) claims = await runHook(tx, user.id, claims, method, info);
    const token = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
    const expiresAt = typeof claims.exp === 'number' ? claims.exp : exp;
    return { token, expiresAt };
  }

  async function runHook(tx: Queryable, userId: string, claims: Row, method: string, _info: RequestInfo): Promise<Row> {
    let output: unknown;
    try {
      await tx.query(`select set_config('statement_timeout', '2000', true)`);
      const { rows } = await tx.query<{ out: unknown }>(`select ${hook!.sql}($1::jsonb) as out`, [
        JSON.stringify({ user_id: userId, claims, authentication_method: method }),
      ]);
      await tx.query(`select set_config('statement_timeout', '0', true)`);
      output = rows[0]?.out;
    } catch (error) {
      ctx.log.warn(`custom access token hook ${hook!.uri} failed: ${pgErrorFields(error).message}`);
      throw databaseUnavailable(error) ?? internal(`Error running hook URI: ${hook!.uri}`);
    }
    if (typeof output === 'string') {
      try {
        output = JSON.parse(output);
      } catch {
        throw internal('Error unmarshaling JSON output.');
      }
    }
    if (!output || typeof output !== 'object' || Array.isArray(output)) throw internal('Error unmarshaling JSON output.');
    const out = output as Row;
    if (out.error && typeof out.error === 'object' && typeof out.error.message === 'string' && out.error.message !== '') {
      const status = Number.isInteger(out.error.http_code) && out.error.http_code >= 400 && out.error.http_code < 600 ? out.error.http_code : 500;
      throw new AuthError(status, status >= 500 ? 'unexpected_failure' : 'unknown', out.error.message);
    }
    if (!('claims' in out)) throw internal('output claims field is missing');
    const c = out.claims;
    if (!c || typeof c !== 'object' || Array.isArray(c)) throw internal('Error unmarshaling JSON output.');
    const problems: string[] = [];
    for (const name of ['aud', 'exp', 'iat', 'sub', 'email', 'phone', 'role', 'aal', 'session_id', 'is_anonymous']) {
      if (!(name in c)) problems.push(`- (root): ${name} is required`);
    }
    const types: Record<string, (v: unknown) => boolean> = {
      aud: (v) => typeof v === 'string' || Array.isArray(v),
      exp: Number.isInteger,
      iat: Number.isInteger,
      nbf: Number.isInteger,
      iss: (v) => typeof v === 'string',
      jti: (v) => typeof v === 'string',
      sub: (v) => typeof v === 'string',
      email: (v) => typeof v === 'string',
      phone: (v) => typeof v === 'string',
      role: (v) => typeof v === 'string',
      aal: (v) => typeof v === 'string',
      session_id: (v) => typeof v === 'string',
      app_metadata: (v) => !!v && typeof v === 'object' && !Array.isArray(v),
      user_metadata: (v) => !!v && typeof v === 'object' && !Array.isArray(v),
      amr: Array.isArray,
    };
    for (const [name, ok] of Object.entries(types)) {
      if (name in c && !ok(c[name])) problems.push(`- ${name}: Invalid type`);
    }
    if (problems.length) throw internal(`output claims do not conform to the expected schema: \n${problems.join('\n')}\n`);
    // GoTrue signs the hook's claims as a Go map, whose JSON has its keys sorted.
    return Object.fromEntries(Object.keys(c).sort().map((k) => [k, c[k]]));
  }

  /** models.AddClaimToSession: one row per session and method, its time refreshed on reuse. */
  async function addAmrClaim(tx: Queryable, sessionId: string, method: string) {
    await tx.query(
      `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method) values ($1, $2, $3, $3, $4)
       on conflict on constraint mfa_amr_claims_session_id_authentication_method_pkey do update set updated_at = excluded.updated_at`,
      [randomUUID(), sessionId, clock.iso(), method],
    );
  }

  /** models.NewAuditLogEntry for the factor actions (log_type "factor"). */
  async function auditFactor(tx: Queryable, user: Row, action: string, traits: Row, info: RequestInfo) {
    const payload = { actor_id: user.id, actor_username: user.email ?? '', actor_via_sso: false, action, log_type: 'factor', traits };
    await tx.query(
      `insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address) values ($1, $2, $3::json, $4, $5)`,
      [INSTANCE_ID, randomUUID(), JSON.stringify(payload), clock.iso(), info.ip.slice(0, 64)],
    );
  }

  async function recordLogin(tx: Queryable, user: Row, sessionId: string, method: string, info: RequestInfo) {
    const payload = {
      actor_id: user.id,
      actor_username: user.email ?? '',
      actor_via_sso: false,
      action: 'login',
      log_type: 'account',
      traits: { session_id: sessionId, authentication_method: method },
    };
    await tx.query(
      `insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address) values ($1, $2, $3::json, $4, $5)`,
      [INSTANCE_ID, randomUUID(), JSON.stringify(payload), clock.iso(), info.ip.slice(0, 64)],
    );
  }

  async function issueSession(tx: Queryable, userId: string, method: string, info: RequestInfo) {
    const now = clock.iso();
    const sessionId = randomUUID();
    await tx.query(
      `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip, refreshed_at)
       values ($1, $2, $3, $3, 'aal1', $4, $5::inet, null)`,
      [sessionId, userId, now, info.userAgent || null, isIP(info.ip) ? info.ip : null],
    );
    const refreshToken = secureAlphanumeric(12);
    await tx.query(
      `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
       values ($1, $2, $3, false, $4, $4, null, $5)`,
      [INSTANCE_ID, refreshToken, userId, now, sessionId],
    );
    await tx.query(`update auth.users set last_sign_in_at = $2, updated_at = $2 where id = $1`, [userId, now]);
    await addAmrClaim(tx, sessionId, method);
    const loaded = (await byId(tx, userId))!;
    await recordLogin(tx, loaded.row, sessionId, method, info);
    const { token, expiresAt } = await accessToken(tx, loaded.row, sessionId, method, info);
    return {
      access_token: token,
      token_type: 'bearer',
      // GoTrue answers its configured JWT expiry (config.JWT.Exp), not the seconds left.
      expires_in: cfg.jwtExpiry,
      expires_at: expiresAt,
      refresh_token: refreshToken,
      user: userJson(loaded.row, loaded.identities),
    };
  }

  /** Verifies a bearer JWT as GoTrue's requireAuthentication does; loads user and session. */
  async function authenticate(info: RequestInfo) {
    const header = info.req.headers.authorization;
    const m = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!m) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
    let claims: Row;
    try {
      ({ payload: claims } = await jwtVerify(m[1], key, { algorithms: ['HS256'], currentDate: new Date(clock.now()) }));
    } catch (error) {
      let reason = 'token is malformed: could not parse the token';
      if (error instanceof joseErrors.JWTExpired) reason = 'token has invalid claims: token is expired';
      else if (error instanceof joseErrors.JWSSignatureVerificationFailed) reason = 'token signature is invalid: signature is invalid';
      else if (error instanceof joseErrors.JOSEAlgNotAllowed) reason = 'token is unverifiable: error while executing keyfunc: signing method is not allowed';
      else if (error instanceof joseErrors.JWTClaimValidationFailed) reason = `token has invalid claims: ${error.message}`;
      throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
    }
    return { claims, token: m[1] };
  }

  async function requireUser(info: RequestInfo) {
    const { claims } = await authenticate(info);
    if (typeof claims.sub !== 'string' || claims.sub === '') throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
    if (!isUuid(claims.sub)) throw badRequest('bad_jwt', 'invalid claim: sub claim must be a UUID');
    const sessionId = typeof claims.session_id === 'string' ? claims.session_id : '';
    if (sessionId && !isUuid(sessionId)) throw forbidden('bad_jwt', 'invalid claim: session_id claim must be a UUID');
    const found = await db(async (tx) => {
      const user = await byId(tx, claims.sub);
      const session = sessionId && sessionId !== INSTANCE_ID
        ? (await tx.query<{ s: Row }>(`select to_jsonb(s) as s from auth.sessions s where id = $1`, [sessionId])).rows[0]?.s ?? null
        : undefined;
      return { user, session };
    });
    if (!found.user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
    if (found.session === null) throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
    if (isBanned(found.user.row)) throw forbidden('user_banned', 'User is banned');
    return { claims, user: found.user, session: found.session as Row | undefined };
  }

  async function requireAdmin(info: RequestInfo) {
    const { claims } = await authenticate(info);
    if (typeof claims.role !== 'string' || !ADMIN_ROLES.has(claims.role)) throw forbidden('not_admin', 'User not allowed');
    return claims;
  }

  // ------------------------------------------------------------------ handlers
  async function body(info: RequestInfo): Promise<Params> {
    const raw = await readBody(info.req, 1 << 20).catch((error: unknown) => {
      if (error instanceof HttpError) throw new AuthError(413, 'request_too_large', 'Request body too large');
      throw error;
    });
    if (raw.length === 0) return Params.of(undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch (error) {
      throw badRequest('bad_json', `Could not parse request body as JSON: ${(error as Error).message}`);
    }
    return Params.of(parsed);
  }

  const json = (info: RequestInfo, status: number, value: unknown, headers: Record<string, string> = {}) => {
    info.res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    info.res.end(JSON.stringify(value));
  };

  /** Creates (or finds unconfirmed) an e-mail user as /signup does; returns the outcome. */
  async function signupEmail(info: RequestInfo, p: { email: string; password: string; data: Row }) {
    if (!cfg.enableSignup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
    if (p.password === '') throw badRequest('validation_failed', 'Signup requires a valid password');
    checkPasswordStrength(p.password);
    if (!emailEnabled) throw badRequest('email_provider_disabled', 'Email signups are disabled');
    const email = validateEmail(p.email);
    const existing = await db((tx) => byEmail(tx, email));
    // Hashed for a registered address too, so the answer's time does not tell it from a new one.
    const hash = await bcrypt.hash(p.password, BCRYPT_COST);
    return db(async (tx) => {
      let user: Row;
      if (existing) {
        if (isConfirmed(existing.row)) return { kind: 'exists' as const, email };
        user = existing.row;
      } else {
        user = await insertUser(tx, {
          email,
          passwordHash: hash,
          userMeta: p.data,
          appMeta: { provider: 'email', providers: ['email'] },
          anonymous: false,
        });
      }
      const identity = await tx.query(`select 1 from auth.identities where user_id = $1 and provider = 'email'`, [user.id]);
      if (identity.rowCount === 0) await createEmailIdentity(tx, user, email, p.data);
      if (autoconfirm) {
        await confirmUser(tx, user.id);
        return { kind: 'session' as const, session: await issueSession(tx, user.id, 'password', info) };
      }
      await sendConfirmation(tx, (await byId(tx, user.id))!.row, info);
      const loaded = (await byId(tx, user.id))!;
      return { kind: 'user' as const, user: userJson(loaded.row, loaded.identities) };
    });
  }

  async function handleSignup(info: RequestInfo) {
    const p = await body(info);
    const email = p.str('email');
    const phone = p.str('phone');
    if (email === '' && phone === '') {
      if (!cfg.enableAnonymousSignIns) throw unprocessable('anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
      limit(limiters.anonymous, info);
      if (!cfg.enableSignup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
      const data = p.obj('data') ?? {};
      const session = await db(async (tx) => {
        const user = await insertUser(tx, { email: null, passwordHash: '', userMeta: data, appMeta: {}, anonymous: true });
        return issueSession(tx, user.id, 'anonymous', info);
      }).catch((error: unknown) => {
        const code = isPgError(error) ? pgErrorFields(error).code ?? '' : '';
        if (error instanceof AuthError || code.startsWith('22')) throw error;
        throw databaseUnavailable(error) ?? internal('Database error creating anonymous user');
      });
      return json(info, 200, session);
    }
    limit(limiters.otp, info);
    if (email !== '' && phone !== '') {
      if (!cfg.enableSignup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
      throw badRequest('validation_failed', 'Only an email address or phone number should be provided on signup.');
    }
    if (phone !== '') {
      if (!cfg.enableSignup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
      throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
    }
    const data = p.obj('data') ?? {};
    const result = await signupEmail(info, { email, password: p.str('password'), data });
    if (result.kind === 'session') return json(info, 200, result.session);
    if (result.kind === 'user') return json(info, 200, result.user);
    // A confirmed address: with confirmations on, answer with an obfuscated user as GoTrue does,
    // so the response does not reveal that the address is registered.
    if (autoconfirm) throw unprocessable('user_already_exists', 'User already registered');
    const now = clock.iso();
    return json(info, 200, {
      id: randomUUID(),
      aud: AUD,
      role: '',
      email: result.email,
      phone: '',
      confirmation_sent_at: now,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: data,
      identities: [],
      created_at: now,
      updated_at: now,
      is_anonymous: false,
    });
  }

  async function handleToken(info: RequestInfo) {
    const grant = info.url.searchParams.get('grant_type') ?? '';
    if (!['password', 'refresh_token', 'id_token', 'pkce', 'web3'].includes(grant)) {
      throw badRequest('invalid_credentials', 'unsupported_grant_type');
    }
    limit(limiters.token, info);
    if (grant === 'password') return passwordGrant(info);
    if (grant === 'refresh_token') return refreshGrant(info);
    throw badRequest('validation_failed', `grant_type ${grant} is not supported by the local stack`);
  }

  async function passwordGrant(info: RequestInfo) {
    const p = await body(info);
    const email = p.str('email');
    const phone = p.str('phone');
    const password = p.str('password');
    if (email && phone) throw badRequest('validation_failed', 'Only an email address or phone number should be provided on login.');
    if (!email && !phone) throw badRequest('validation_failed', 'missing email or phone');
    if (phone) throw unprocessable('phone_provider_disabled', 'Phone logins are disabled');
    if (!emailEnabled) throw unprocessable('email_provider_disabled', 'Email logins are disabled');
    const found = await db((tx) => byEmail(tx, email));
    const invalid = () => badRequest('invalid_credentials', 'Invalid login credentials');
    if (!found || !hasPassword(found.row)) {
      // One bcrypt comparison as for a registered address (GoTrue answers at once here), so the
      // time of the answer does not reveal whether the address is registered.
      await dummyCompare(password);
      throw invalid();
    }
    if (isBanned(found.row)) throw badRequest('user_banned', 'User is banned');
    const valid = await bcrypt.compare(password, found.row.encrypted_password).catch(() => false);
    if (!valid) throw invalid();
    if (!isConfirmed(found.row)) throw badRequest('email_not_confirmed', 'Email not confirmed');
    let weak: WeakPasswordError | undefined;
    try {
      checkPasswordStrength(password);
    } catch (error) {
      if (error instanceof WeakPasswordError) weak = error;
    }
    const session: Row = await db((tx) => issueSession(tx, found.row.id, 'password', info));
    if (weak) session.weak_password = { message: weak.message, reasons: weak.reasons };
    return json(info, 200, session);
  }

  async function refreshGrant(info: RequestInfo) {
    const p = await body(info);
    const token = p.str('refresh_token');
    if (!token) return json(info, 400, { error: 'invalid_request', error_description: 'refresh_token required' });
    const outcome = await db(async (tx) => {
      const rt = (
        await tx.query<{ r: Row }>(`select to_jsonb(r) as r from auth.refresh_tokens r where token = $1 limit 1 for update`, [token])
      ).rows[0]?.r;
      if (!rt) throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
      const user = isUuid(String(rt.user_id)) ? await byId(tx, rt.user_id) : undefined;
      if (!user) throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
      if (isBanned(user.row)) throw badRequest('user_banned', 'Invalid Refresh Token: User Banned');
      const session = rt.session_id
        ? (await tx.query<{ s: Row }>(`select to_jsonb(s) as s from auth.sessions s where id = $1 for update`, [rt.session_id])).rows[0]?.s
        : undefined;
      if (!session) {
        await tx.query(`delete from auth.refresh_tokens where id = $1`, [rt.id]);
        return { error: badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found') };
      }
      if (session.not_after && (ms(session.not_after) ?? Infinity) < clock.now()) {
        throw badRequest('session_expired', 'Invalid Refresh Token: Session Expired');
      }
      let issued = '';
      if (rt.revoked) {
        const active = (
          await tx.query<{ r: Row }>(
            `select to_jsonb(r) as r from auth.refresh_tokens r where session_id = $1 and revoked = false order by id desc limit 1`,
            [session.id],
          )
        ).rows[0]?.r;
        if (active && active.parent === rt.token) {
          issued = active.token;
        } else if (clock.now() > (ms(rt.updated_at) ?? 0) + cfg.refreshTokenReuseInterval * 1000) {
          if (cfg.enableRefreshTokenRotation) {
            await tx.query(`update auth.refresh_tokens set revoked = true, updated_at = $2 where session_id = $1 and revoked = false`, [
              session.id,
              clock.iso(),
            ]);
          }
          // Committed: the family stays revoked although this request fails.
          return { error: badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used') };
        }
      }
      const now = clock.iso();
      if (!issued) {
        await tx.query(`update auth.refresh_tokens set revoked = true, updated_at = $2 where id = $1`, [rt.id, now]);
        issued = secureAlphanumeric(12);
        await tx.query(
          `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
           values ($1, $2, $3, false, $4, $4, $5, $6)`,
          [INSTANCE_ID, issued, user.row.id, now, rt.token, session.id],
        );
      }
      const { token: access, expiresAt } = await accessToken(tx, user.row, session.id, 'token_refresh', info);
      await tx.query(
        `update auth.sessions set refreshed_at = $2::timestamptz at time zone 'UTC', updated_at = $2, user_agent = $3, ip = $4::inet where id = $1`,
        [session.id, now, info.userAgent || null, isIP(info.ip) ? info.ip : null],
      );
      return {
        session: {
          access_token: access,
          token_type: 'bearer',
          // GoTrue answers its configured JWT expiry (config.JWT.Exp), not the seconds left.
      expires_in: cfg.jwtExpiry,
          expires_at: expiresAt,
          refresh_token: issued,
          user: userJson(user.row, user.identities),
        },
      };
    });
    if ('error' in outcome && outcome.error) throw outcome.error;
    return json(info, 200, (outcome as { session: Row }).session);
  }

  async function handleOtp(info: RequestInfo) {
    limit(limiters.otp, info);
    const p = await body(info);
    const email = p.str('email');
    const phone = p.str('phone');
    if (email && phone) throw badRequest('validation_failed', 'Only an email address or phone number should be provided');
    if (email && p.str('channel')) throw badRequest('validation_failed', 'Channel should only be specified with Phone OTP');
    const createUser = p.bool('create_user', true);
    const data = p.obj('data') ?? {};
    if (!email && !phone) throw badRequest('validation_failed', 'One of email or phone must be set');
    if (phone) throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
    const normalized = validateEmail(email);
    if (!createUser) {
      const exists = await db((tx) => byEmail(tx, normalized));
      if (!exists) throw unprocessable('otp_disabled', 'Signups not allowed for otp');
    }
    if (!emailEnabled) throw unprocessable('email_provider_disabled', 'Email logins are disabled');
    const found = await db((tx) => byEmail(tx, normalized));
    if (!found || !isConfirmed(found.row)) {
      // A new (or never confirmed) address: signed up with a random password and sent the
      // confirmation code. Either way the answer is the same `{}`.
      const result = await signupEmail(info, { email: normalized, password: randomPassword(required), data });
      if (result.kind === 'session') {
        const user = (await db((tx) => byEmail(tx, normalized)))!;
        await db((tx) => sendRecoveryLike(tx, user.row, info, 'magic_link'));
      }
      return json(info, 200, {});
    }
    await db((tx) => sendRecoveryLike(tx, found.row, info, 'magic_link'));
    return json(info, 200, {});
  }

  /** Counts a wrong code for an address; after too many its outstanding codes are void. */
  async function codeFailed(tx: Queryable, email: string) {
    if (!email) return;
    const n = (failedCodes.get(email) ?? 0) + 1;
    failedCodes.set(email, n);
    if (failedCodes.size > 10_000) failedCodes.delete(failedCodes.keys().next().value as string);
    if (n >= MAX_FAILED_CODE_ATTEMPTS) {
      const user = await byEmail(tx, email);
      if (user) await clearTokens(tx, user.row.id);
      const pending = await findUser(tx, 'lower(u.email_change) = lower($1)', [email]);
      if (pending) await clearTokens(tx, pending.row.id);
      failedCodes.delete(email);
    }
  }

  const otpValid = (actual: string, expected: unknown, sentAt: unknown) => {
    if (typeof expected !== 'string' || expected === '' || !sentAt) return false;
    if ((ms(sentAt) ?? 0) + otpExpiryMs < clock.now()) return false;
    return actual === expected || 'pkce_' + actual === expected;
  };

  async function handleVerify(info: RequestInfo, method: 'GET' | 'POST') {
    limit(limiters.verify, info);
    let type: string;
    let token = '';
    let hash = '';
    let email = '';
    let redirectTo = '';
    if (method === 'GET') {
      type = info.url.searchParams.get('type') ?? '';
      hash = info.url.searchParams.get('token') ?? '';
      redirectTo = referrer(info);
      if (!type) throw badRequest('validation_failed', 'Verify requires a verification type');
      if (!hash) throw badRequest('validation_failed', 'Verify requires a token or a token hash');
    } else {
      const p = await body(info);
      type = p.str('type');
      token = p.str('token');
      hash = p.str('token_hash');
      email = p.str('email');
      const phone = p.str('phone');
      redirectTo = p.str('redirect_to');
      if (!type) throw badRequest('validation_failed', 'Verify requires a verification type');
      if ((token === '' && hash === '') || (token !== '' && hash !== '')) {
        throw badRequest('validation_failed', 'Verify requires either a token or a token hash');
      }
      if (token) {
        if (['signup', 'invite', 'recovery', 'magiclink', 'email', 'email_change'].includes(type) && email) {
          try {
            email = validateEmail(email);
          } catch {
            throw unprocessable('validation_failed', 'Invalid email format');
          }
          hash = tokenHash(email, token);
        } else if (phone || type === 'sms' || type === 'phone_change') {
          throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
        } else {
          throw badRequest('validation_failed', 'Only an email address or phone number should be provided on verify');
        }
      } else if (email || phone || redirectTo) {
        throw badRequest('validation_failed', 'Only the token_hash and type should be provided');
      }
    }
    if (!['signup', 'invite', 'recovery', 'magiclink', 'email', 'email_change'].includes(type)) {
      if (method === 'POST' && (type === 'sms' || type === 'phone_change')) throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
      throw badRequest('validation_failed', method === 'POST' && token ? 'Unsupported verification type' : 'Invalid email verification type');
    }
    const usingHash = token === '';

    const outcome = await db(async (tx) => {
      let user: LoadedUser | undefined;
      let effective = type;
      if (usingHash) {
        const column = { signup: 'confirmation_token', invite: 'confirmation_token', recovery: 'recovery_token', magiclink: 'recovery_token' }[type];
        if (type === 'email') {
          user = await findUser(tx, `u.confirmation_token = $1 or u.recovery_token = $1`, [hash]);
        } else if (type === 'email_change') {
          user = await findUser(tx, `u.email_change_token_current = $1 or u.email_change_token_new = $1`, [hash]);
        } else {
          user = await findUser(tx, `u.${column} = $1`, [hash]);
        }
        const expired = () => forbidden('otp_expired', 'Email link is invalid or has expired');
        if (!user) return { error: expired() };
        const u = user.row;
        if (isBanned(u)) throw forbidden('user_banned', 'User is banned');
        let sentAt = u.confirmation_sent_at;
        if (type === 'email') {
          effective = 'signup';
          if (u.recovery_token === hash) {
            sentAt = u.recovery_sent_at;
            effective = 'magiclink';
          }
        } else if (type === 'recovery' || type === 'magiclink') sentAt = u.recovery_sent_at;
        else if (type === 'email_change') sentAt = u.email_change_sent_at;
        if (!sentAt || (ms(sentAt) ?? 0) + otpExpiryMs < clock.now()) return { error: expired() };
      } else {
        if (type === 'email_change') {
          user = await findUser(
            tx,
            `u.instance_id = $1 and u.aud = $2 and ((lower(u.email_change) = lower($3) and u.email_change_token_new in ($4::text, 'pkce_' || $4::text))
               or (lower(u.email) = lower($3) and u.email_change_token_current in ($4::text, 'pkce_' || $4::text)))`,
            [INSTANCE_ID, AUD, email, hash],
          );
        } else {
          user = await byEmail(tx, email);
        }
        const invalid = () => forbidden('otp_expired', 'Token has expired or is invalid');
        if (!user) {
          await codeFailed(tx, email);
          return { error: invalid() };
        }
        const u = user.row;
        if (isBanned(u)) throw forbidden('user_banned', 'User is banned');
        let valid = false;
        if (type === 'email') {
          if (otpValid(hash, u.confirmation_token, u.confirmation_sent_at)) {
            valid = true;
            effective = 'signup';
          } else if (otpValid(hash, u.recovery_token, u.recovery_sent_at)) {
            valid = true;
            effective = 'magiclink';
          }
        } else if (type === 'signup' || type === 'invite') valid = otpValid(hash, u.confirmation_token, u.confirmation_sent_at);
        else if (type === 'recovery' || type === 'magiclink') valid = otpValid(hash, u.recovery_token, u.recovery_sent_at);
        else if (type === 'email_change') {
          valid = otpValid(hash, u.email_change_token_current, u.email_change_sent_at) || otpValid(hash, u.email_change_token_new, u.email_change_sent_at);
        }
        if (!valid) {
          await codeFailed(tx, email);
          return { error: invalid() };
        }
        failedCodes.delete(email);
      }

      const u = user.row;
      if (effective === 'signup' || effective === 'invite') {
        if (!hasPassword(u) && u.invited_at) {
          await tx.query(`update auth.users set encrypted_password = $2 where id = $1`, [u.id, await bcrypt.hash(randomPassword([], 64), BCRYPT_COST)]);
        }
        await confirmUser(tx, u.id);
        await tx.query(
          `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = $3
            where user_id = $1 and provider = 'email' and lower(identity_data ->> 'email') = lower($2)`,
          [u.id, u.email ?? '', clock.iso()],
        );
      } else if (effective === 'recovery' || effective === 'magiclink') {
        await tx.query(`update auth.users set recovery_token = '', updated_at = $2 where id = $1`, [u.id, clock.iso()]);
        await tx.query(`delete from auth.one_time_tokens where user_id = $1`, [u.id]);
        if (!isConfirmed(u)) await confirmUser(tx, u.id);
      } else if (effective === 'email_change') {
        if (!autoconfirm && cfg.email.doubleConfirmChanges && Number(u.email_change_confirm_status) === 0 && u.email) {
          // Secure e-mail change: the first of the two codes only counts as half.
          if (hash === u.email_change_token_current || 'pkce_' + hash === u.email_change_token_current) {
            await tx.query(`update auth.users set email_change_confirm_status = 1, email_change_token_current = '' where id = $1`, [u.id]);
            await tx.query(`delete from auth.one_time_tokens where user_id = $1 and token_type = 'email_change_token_current'`, [u.id]);
          } else {
            await tx.query(`update auth.users set email_change_confirm_status = 1, email_change_token_new = '' where id = $1`, [u.id]);
            await tx.query(`delete from auth.one_time_tokens where user_id = $1 and token_type = 'email_change_token_new'`, [u.id]);
          }
          return { single: true };
        }
        await confirmEmailChange(tx, u);
      }
      await updateProviders(tx, u.id);
      return { session: await issueSession(tx, u.id, 'otp', info) };
    });

    if (method === 'GET') {
      let target: URL;
      try {
        target = new URL(redirectTo || cfg.siteUrl);
      } catch {
        target = new URL(cfg.siteUrl);
      }
      const fragment = new URLSearchParams();
      if ('error' in outcome && outcome.error) {
        const e = outcome.error;
        fragment.set('error', e.status === 403 ? 'access_denied' : e.status === 400 ? 'invalid_request' : 'server_error');
        fragment.set('error_code', e.code);
        fragment.set('error_description', e.message);
      } else if ('single' in outcome) {
        fragment.set('message', 'Confirmation link accepted. Please proceed to confirm link sent to the other email');
      } else {
        const s = (outcome as { session: Row }).session;
        fragment.set('access_token', s.access_token);
        fragment.set('token_type', 'bearer');
        fragment.set('expires_in', String(s.expires_in));
        fragment.set('expires_at', String(s.expires_at));
        fragment.set('refresh_token', s.refresh_token);
        fragment.set('type', type);
      }
      fragment.set('sb', '');
      target.hash = fragment.toString();
      info.res.writeHead(303, { location: target.toString() });
      info.res.end();
      return;
    }
    if ('error' in outcome && outcome.error) throw outcome.error;
    if ('single' in outcome) {
      return json(info, 200, { msg: 'Confirmation link accepted. Please proceed to confirm link sent to the other email', code: '200' });
    }
    return json(info, 200, (outcome as { session: Row }).session);
  }

  async function confirmEmailChange(tx: Queryable, u: Row) {
    const newEmail = String(u.email_change ?? '').toLowerCase();
    const identity = await tx.query(`select id from auth.identities where user_id = $1 and provider = 'email'`, [u.id]);
    if (identity.rowCount === 0) {
      await createEmailIdentity(tx, u, newEmail, {}, true);
    } else {
      await tx.query(
        `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true), updated_at = $3
          where user_id = $1 and provider = 'email'`,
        [u.id, newEmail, clock.iso()],
      );
    }
    await tx.query(
      `update auth.users set email = $2, email_change = '', email_change_token_current = '', email_change_token_new = '',
              email_change_confirm_status = 0, is_anonymous = false, updated_at = $3 where id = $1`,
      [u.id, newEmail, clock.iso()],
    );
    await tx.query(`delete from auth.one_time_tokens where user_id = $1`, [u.id]);
    if (!isConfirmed(u)) await confirmUser(tx, u.id);
  }

  async function handleRecover(info: RequestInfo) {
    limit(limiters.otp, info);
    const p = await body(info);
    const raw = p.str('email');
    if (!emailEnabled) throw badRequest('email_provider_disabled', 'Email logins are disabled');
    if (!raw) throw badRequest('validation_failed', 'Password recovery requires an email');
    const email = validateEmail(raw);
    const found = await db((tx) => byEmail(tx, email));
    if (!found) return json(info, 200, {});
    await db((tx) => sendRecoveryLike(tx, found.row, info, 'recovery'));
    return json(info, 200, {});
  }

  async function handleResend(info: RequestInfo) {
    limit(limiters.otp, info);
    const p = await body(info);
    const type = p.str('type');
    const rawEmail = p.str('email');
    const phone = p.str('phone');
    if (!['signup', 'email_change', 'sms', 'phone_change'].includes(type)) {
      throw badRequest('validation_failed', 'Missing one of these types: signup, email_change, sms, phone_change');
    }
    if (!rawEmail && type === 'signup') throw badRequest('validation_failed', 'Type provided requires an email address');
    if (!phone && type === 'sms') throw badRequest('validation_failed', 'Type provided requires a phone number');
    if (rawEmail && phone) throw badRequest('validation_failed', 'Only an email address or phone number should be provided.');
    if (phone || type === 'sms' || type === 'phone_change') throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
    if (!rawEmail) throw badRequest('validation_failed', 'Missing email address or phone number');
    if (!emailEnabled) throw badRequest('email_provider_disabled', 'Email logins are disabled');
    const email = validateEmail(rawEmail);
    const found = await db((tx) => byEmail(tx, email));
    if (!found) return json(info, 200, {});
    const u = found.row;
    if (type === 'signup' && isConfirmed(u)) return json(info, 200, {});
    if (type === 'email_change' && !u.email_change) return json(info, 200, {});
    await db((tx) => (type === 'signup' ? sendConfirmation(tx, u, info) : sendEmailChange(tx, u, u.email_change, info)));
    return json(info, 200, {});
  }

  async function handleUserGet(info: RequestInfo) {
    const { claims, user } = await requireUser(info);
    const aud = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
    if (aud !== AUD) throw badRequest('validation_failed', "Token audience doesn't match request audience");
    return json(info, 200, userJson(user.row, user.identities));
  }

  async function handleUserPut(info: RequestInfo) {
    limit(limiters.otp, info);
    const { user, session } = await requireUser(info);
    const p = await body(info);
    const u = user.row;
    let email = p.str('email');
    const password = p.has('password') ? p.str('password') : undefined;
    const nonce = p.str('nonce');
    const data = p.obj('data');
    const appData = p.obj('app_metadata');
    if (p.str('phone')) throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
    if (email) email = validateEmail(email);
    if (password !== undefined) checkPasswordStrength(password);
    if (appData) throw forbidden('not_admin', 'Updating app_metadata requires admin privileges');
    if (u.is_anonymous && password) {
      if (!email) throw unprocessable('validation_failed', 'Updating password of an anonymous user without an email or phone is not allowed');
    }
    if (email && email !== (u.email ?? '')) {
      const dup = await db((tx) =>
        findUser(
          tx,
          `u.id <> $1 and u.aud = $3 and (lower(u.email) = $2 or exists (select 1 from auth.identities i where i.user_id = u.id and i.email = $2))`,
          [u.id, email, AUD],
        ),
      );
      if (dup) throw unprocessable('email_exists', 'A user with this email address has already been registered');
    }
    let newHash: string | undefined;
    if (password !== undefined) {
      if (cfg.email.securePasswordChange && (!session || (ms(session.created_at) ?? 0) + 24 * 3_600_000 < clock.now())) {
        if (!nonce) throw badRequest('reauthentication_needed', 'Password update requires reauthentication');
        const valid = otpValid(tokenHash(u.email ?? '', nonce), u.reauthentication_token, u.reauthentication_sent_at);
        if (!valid) throw forbidden('reauthentication_not_valid', 'Requested nonce is invalid or has expired');
      }
      if (password !== '' && hasPassword(u) && (await bcrypt.compare(password, u.encrypted_password).catch(() => false))) {
        throw unprocessable('same_password', 'New password should be different from the old password.');
      }
      newHash = password === '' ? '' : await bcrypt.hash(password, BCRYPT_COST);
    }
    const updated = await db(async (tx) => {
      if (newHash !== undefined) {
        await tx.query(
          `update auth.users set encrypted_password = $2, confirmation_token = '', confirmation_sent_at = null, recovery_token = '',
                  recovery_sent_at = null, email_change_token_current = '', email_change_token_new = '', email_change_sent_at = null,
                  reauthentication_token = '', reauthentication_sent_at = null, updated_at = $3 where id = $1`,
          [u.id, newHash, clock.iso()],
        );
        await tx.query(`delete from auth.one_time_tokens where user_id = $1`, [u.id]);
        if (session) await tx.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [u.id, session.id]);
        else await tx.query(`delete from auth.sessions where user_id = $1`, [u.id]);
        if (!hasPassword(u) && newHash && u.email) {
          const identity = await tx.query(`select 1 from auth.identities where user_id = $1 and provider = 'email'`, [u.id]);
          if (identity.rowCount === 0) await createEmailIdentity(tx, u, u.email, {}, isConfirmed(u));
        }
      }
      if (data) await updateMeta(tx, u.id, 'raw_user_meta_data', data);
      if (email && email !== (u.email ?? '')) {
        const current = (await byId(tx, u.id))!.row;
        if (current.is_anonymous && autoconfirm) {
          await confirmEmailChange(tx, { ...current, email_change: email });
          await updateProviders(tx, u.id);
        } else {
          await sendEmailChange(tx, current, email, info);
        }
      }
      return (await byId(tx, u.id))!;
    });
    return json(info, 200, userJson(updated.row, updated.identities));
  }

  async function handleReauthenticate(info: RequestInfo) {
    const { user } = await requireUser(info);
    const u = user.row;
    if (!u.email) throw unprocessable('validation_failed', 'Reauthentication requires the user to have an email or a phone number');
    await db(async (tx) => {
      checkFrequency(u.reauthentication_sent_at);
      const otp = generateOtp(cfg.email.otpLength);
      const hash = tokenHash(u.email, otp);
      await sendMail('reauthentication', u, { to: u.email, otp, hash, verifyType: 'reauthentication', info });
      await tx.query(`update auth.users set reauthentication_token = $2, reauthentication_sent_at = $3 where id = $1`, [u.id, hash, clock.iso()]);
      await saveOneTimeToken(tx, u.id, 'reauthentication_token', hash, u.email);
    });
    return json(info, 200, {});
  }

  async function handleLogout(info: RequestInfo) {
    const scope = info.url.searchParams.get('scope') ?? '';
    if (!['', 'global', 'local', 'others'].includes(scope)) throw badRequest('validation_failed', `Unsupported logout scope "${scope}"`);
    const { user, session } = await requireUser(info);
    await db(async (tx) => {
      if (session && scope === 'local') await tx.query(`delete from auth.sessions where id = $1`, [session.id]);
      else if (session && scope === 'others') await tx.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [user.row.id, session.id]);
      else await tx.query(`delete from auth.sessions where user_id = $1`, [user.row.id]);
    });
    info.res.writeHead(204);
    info.res.end();
  }

  function handleSettings(info: RequestInfo) {
    const external: Row = {};
    for (const name of ['anonymous_users', 'apple', 'azure', 'bitbucket', 'discord', 'facebook', 'snapchat', 'figma', 'fly', 'github',
      'gitlab', 'google', 'keycloak', 'kakao', 'linkedin', 'linkedin_oidc', 'notion', 'spotify', 'slack', 'slack_oidc', 'workos',
      'twitch', 'twitter', 'email', 'phone', 'zoom']) {
      external[name] = false;
    }
    external.anonymous_users = cfg.enableAnonymousSignIns;
    external.email = emailEnabled;
    return json(info, 200, {
      external,
      disable_signup: !cfg.enableSignup,
      mailer_autoconfirm: autoconfirm,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
      saml_private_key_next_configured: false,
      passkeys_enabled: false,
    });
  }

  // ------------------------------------------------------------------ MFA (GoTrue's internal/api/mfa.go, TOTP only)
  /** requireAuthentication + requireNotAnonymous + a session, as /factors needs them. */
  async function requireFactorUser(info: RequestInfo, what: string) {
    const auth = await requireUser(info);
    if (auth.claims.is_anonymous === true) throw forbidden('no_authorization', 'Anonymous user not allowed to perform these actions');
    if (!auth.session) throw internal(`A valid session and a registered user are required to ${what}`);
    return auth as typeof auth & { session: Row };
  }

  /** loadFactor: the factor must belong to the user. */
  async function loadFactor(userId: string, factorId: string): Promise<Row> {
    if (!isUuid(factorId)) throw new AuthError(404, 'validation_failed', 'factor_id must be an UUID');
    const { rows } = await db((tx) =>
      tx.query<{ f: Row }>(`select to_jsonb(f) as f from auth.mfa_factors f where f.user_id = $1 and f.id = $2`, [userId, factorId]),
    );
    if (!rows[0]) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
    return rows[0].f;
  }

  const inet = (ip: string) => (isIP(ip) ? ip : '0.0.0.0');
  const challengeExpiryMs = 300_000;
  const factorExpiryMs = 300_000;

  async function handleEnroll(info: RequestInfo) {
    const { user, session } = await requireFactorUser(info, 'enroll a factor');
    const p = await body(info);
    const type = p.str('factor_type');
    if (type === 'phone') throw unprocessable('mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
    if (type === 'webauthn') throw unprocessable('mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
    if (type !== 'totp') throw badRequest('validation_failed', 'factor_type needs to be totp, phone, or webauthn');
    if (!cfg.mfa.totp.enrollEnabled) throw unprocessable('mfa_totp_enroll_not_enabled', 'MFA enroll is disabled for TOTP');
    const friendlyName = p.str('friendly_name');
    let issuer = p.str('issuer');
    if (!issuer) {
      try {
        issuer = new URL(cfg.siteUrl).host;
      } catch {
        throw internal('site url is improperly formatted');
      }
    }
    const u = user.row;
    const created = await db(async (tx) => {
      // validateFactors
      await tx.query(
        `delete from auth.mfa_factors f where f.status <> 'verified' and not exists (select 1 from auth.mfa_challenges c where c.factor_id = f.id)
            and f.created_at + make_interval(secs => $1) < $2::timestamptz`,
        [factorExpiryMs / 1000, clock.iso()],
      );
      const { rows: factors } = await tx.query<{ friendly_name: string | null; status: string }>(
        `select friendly_name, status::text from auth.mfa_factors where user_id = $1`,
        [u.id],
      );
      if (factors.some((f) => (f.friendly_name ?? '') === friendlyName)) {
        throw unprocessable('mfa_factor_name_conflict', `A factor with the friendly name ${JSON.stringify(friendlyName)} for this user already exists`);
      }
      const verified = factors.filter((f) => f.status === 'verified').length;
      if (factors.length >= cfg.mfa.maxEnrolledFactors || verified >= 10) {
        throw unprocessable('too_many_enrolled_mfa_factors', 'Maximum number of verified factors reached, unenroll to continue');
      }
      if (verified > 0 && session.aal !== 'aal2') throw forbidden('insufficient_aal', 'AAL2 required to enroll a new factor');
      const secret = newTotpSecret();
      const uri = otpauthUri(issuer, u.email ?? '', secret);
      const id = randomUUID();
      const now = clock.iso();
      await tx.query(
        `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
         values ($1, $2, $3, 'totp', 'unverified', $4, $4, $5)`,
        [id, u.id, friendlyName, now, secret],
      );
      await auditFactor(tx, u, 'factor_in_progress', { factor_id: id }, info);
      return { id, secret, uri };
    });
    return json(info, 200, {
      id: created.id,
      type: 'totp',
      friendly_name: friendlyName,
      totp: { qr_code: qrSvg(created.uri), secret: created.secret, uri: created.uri },
    });
  }

  async function handleChallenge(info: RequestInfo, factorId: string) {
    const { user } = await requireFactorUser(info, 'challenge a factor');
    const factor = await loadFactor(user.row.id, factorId);
    limit(limiters.factorChallenge, info);
    if (!cfg.mfa.totp.verifyEnabled) throw unprocessable('mfa_totp_verify_not_enabled', 'MFA verification is disabled for TOTP');
    const id = randomUUID();
    const now = clock.iso();
    await db(async (tx) => {
      await tx.query(`insert into auth.mfa_challenges (id, factor_id, created_at, ip_address) values ($1, $2, $3, $4::inet)`, [
        id,
        factor.id,
        now,
        inet(info.ip),
      ]);
      await tx.query(`update auth.mfa_factors set last_challenged_at = $2 where id = $1`, [factor.id, now]);
      await auditFactor(tx, user.row, 'challenge_created', { factor_id: factor.id, factor_status: factor.status }, info);
    });
    return json(info, 200, { id, type: factor.factor_type, expires_at: Math.floor((Date.parse(now) + challengeExpiryMs) / 1000) });
  }

  async function handleFactorVerify(info: RequestInfo, factorId: string) {
    const { user, session } = await requireFactorUser(info, 'verify a factor');
    const factor = await loadFactor(user.row.id, factorId);
    limit(limiters.factorVerify, info);
    const p = await body(info);
    const challengeId = p.str('challenge_id');
    const code = p.str('code');
    if (challengeId && !isUuid(challengeId)) {
      throw badRequest('bad_json', `Could not parse request body as JSON: uuid: incorrect UUID length ${challengeId.length} in string ${JSON.stringify(challengeId)}`);
    }
    if (code === '') throw badRequest('validation_failed', 'Code needs to be non-empty');
    if (!cfg.mfa.totp.verifyEnabled) throw unprocessable('mfa_totp_verify_not_enabled', 'MFA verification is disabled for TOTP');
    const outcome = await db(async (tx) => {
      // validateChallenge
      const challenge = challengeId
        ? (await tx.query<{ c: Row }>(`select to_jsonb(c) as c from auth.mfa_challenges c where id = $1 and factor_id = $2 for update`, [challengeId, factor.id])).rows[0]?.c
        : undefined;
      if (!challenge) throw unprocessable('mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
      if (challenge.verified_at || String(challenge.ip_address).replace(/\/\d+$/, '') !== inet(info.ip)) {
        throw unprocessable('mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
      }
      if ((ms(challenge.created_at) ?? 0) + challengeExpiryMs < clock.now()) {
        await tx.query(`delete from auth.mfa_challenges where id = $1`, [challenge.id]);
        return {
          error: unprocessable('mfa_challenge_expired', `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`),
        };
      }
      if (!totpValid(code, factor.secret ?? '', clock.now())) {
        return { error: unprocessable('mfa_verification_failed', 'Invalid TOTP code entered') };
      }
      const now = clock.iso();
      await auditFactor(tx, user.row, 'verification_attempted', { factor_id: factor.id, challenge_id: challenge.id, factor_type: factor.factor_type }, info);
      await tx.query(`update auth.mfa_challenges set verified_at = $2 where id = $1`, [challenge.id, now]);
      if (factor.status !== 'verified') {
        await tx.query(`update auth.mfa_factors set status = 'verified', updated_at = $2 where id = $1`, [factor.id, now]);
      }
      // updateMFASessionAndClaims: the amr claim, a swapped refresh token, the session at aal2.
      await addAmrClaim(tx, session.id, 'totp');
      const current = (
        await tx.query<{ r: Row }>(
          `select to_jsonb(r) as r from auth.refresh_tokens r where session_id = $1 and revoked = false order by id desc limit 1 for update`,
          [session.id],
        )
      ).rows[0]?.r;
      if (!current) throw internal('Database error granting user');
      await tx.query(`update auth.refresh_tokens set revoked = true, updated_at = $2 where id = $1`, [current.id, now]);
      const refreshToken = secureAlphanumeric(12);
      await tx.query(
        `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
         values ($1, $2, $3, false, $4, $4, $5, $6)`,
        [INSTANCE_ID, refreshToken, user.row.id, now, current.token, session.id],
      );
      await tx.query(`update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = $3 where id = $1`, [session.id, factor.id, now]);
      const loaded = (await byId(tx, user.row.id))!;
      const { token, expiresAt } = await accessToken(tx, loaded.row, session.id, 'totp', info);
      // InvalidateSessionsWithAALLessThan(aal2) and DeleteUnverifiedFactors(totp).
      await tx.query(`delete from auth.sessions where user_id = $1 and aal < 'aal2'`, [user.row.id]);
      await tx.query(`delete from auth.mfa_factors where user_id = $1 and status = 'unverified' and factor_type = 'totp'`, [user.row.id]);
      const after = (await byId(tx, user.row.id))!;
      return {
        session: {
          access_token: token,
          token_type: 'bearer',
          expires_in: expiresAt - Math.floor(clock.now() / 1000),
          expires_at: expiresAt,
          refresh_token: refreshToken,
          user: userJson(after.row, after.identities),
        },
      };
    });
    if ('error' in outcome && outcome.error) throw outcome.error;
    return json(info, 200, (outcome as { session: Row }).session);
  }

  /** factor.DowngradeSessionsToAAL1 */
  async function downgradeSessions(tx: Queryable, factor: Row) {
    await tx.query(
      `delete from auth.mfa_amr_claims where authentication_method = 'totp' and session_id in (select id from auth.sessions where factor_id = $1)`,
      [factor.id],
    );
    await tx.query(`update auth.sessions set aal = 'aal1', factor_id = null where user_id = $1 and factor_id = $2`, [factor.user_id, factor.id]);
  }

  async function handleUnenroll(info: RequestInfo, factorId: string) {
    const { user, session } = await requireFactorUser(info, 'unenroll a factor');
    const factor = await loadFactor(user.row.id, factorId);
    if (factor.status === 'verified' && session.aal !== 'aal2') {
      throw unprocessable('insufficient_aal', 'AAL2 required to unenroll verified factor');
    }
    await db(async (tx) => {
      await tx.query(`delete from auth.mfa_factors where id = $1`, [factor.id]);
      await auditFactor(tx, user.row, 'factor_unenrolled', { factor_id: factor.id, factor_status: factor.status, session_id: session.id }, info);
      await downgradeSessions(tx, factor);
    });
    return json(info, 200, { id: factor.id });
  }

  async function adminFactors(info: RequestInfo, userId: string, factorId: string | undefined, method: string) {
    await requireAdmin(info);
    const found = await adminLoad(userId);
    if (factorId === undefined) {
      if (method !== 'GET') throw new AuthError(405, 'method_not_allowed', 'Method Not Allowed');
      return json(info, 200, (found.row.factors ?? []).map(factorJson));
    }
    const factor = await loadFactor(found.row.id, factorId);
    if (method === 'DELETE') {
      await db(async (tx) => {
        await auditFactor(tx, found.row, 'factor_deleted', { user_id: found.row.id, factor_id: factor.id }, info);
        await tx.query(`delete from auth.mfa_factors where id = $1`, [factor.id]);
        await downgradeSessions(tx, factor);
      });
      return json(info, 200, factorJson(factor));
    }
    if (method === 'PUT') {
      const p = await body(info);
      const name = p.str('friendly_name');
      const updated = await db(async (tx) => {
        if (name) await tx.query(`update auth.mfa_factors set friendly_name = $2, updated_at = $3 where id = $1`, [factor.id, name, clock.iso()]);
        await auditFactor(tx, found.row, 'factor_updated', { user_id: found.row.id, factor_id: factor.id, factor_type: factor.factor_type }, info);
        return (await tx.query<{ f: Row }>(`select to_jsonb(f) as f from auth.mfa_factors f where id = $1`, [factor.id])).rows[0].f;
      });
      return json(info, 200, factorJson(updated));
    }
    throw new AuthError(405, 'method_not_allowed', 'Method Not Allowed');
  }

  // ------------------------------------------------------------------ admin
  async function adminInvite(info: RequestInfo) {
    await requireAdmin(info);
    const p = await body(info);
    const email = validateEmail(p.str('email'));
    const data = p.obj('data') ?? {};
    const existing = await db((tx) => byEmail(tx, email));
    if (existing && isConfirmed(existing.row)) throw unprocessable('email_exists', 'A user with this email address has already been registered');
    const invited = await db(async (tx) => {
      const user =
        existing?.row ??
        (await insertUser(tx, { email, passwordHash: '', userMeta: data, appMeta: { provider: 'email', providers: ['email'] }, anonymous: false }));
      if (!existing) await createEmailIdentity(tx, user, email, data);
      const otp = generateOtp(cfg.email.otpLength);
      const hash = tokenHash(email, otp);
      await sendMail('invite', user, { to: email, otp, hash, verifyType: 'invite', info });
      const now = clock.iso();
      await tx.query(`update auth.users set confirmation_token = $2, confirmation_sent_at = $3, invited_at = $3, updated_at = $3 where id = $1`, [user.id, hash, now]);
      await saveOneTimeToken(tx, user.id, 'confirmation_token', hash, email);
      return (await byId(tx, user.id))!;
    });
    return json(info, 200, userJson(invited.row, invited.identities));
  }

  async function adminList(info: RequestInfo) {
    await requireAdmin(info);
    const q = info.url.searchParams;
    const num = (name: string, fallback: number) => {
      const v = q.get(name);
      if (v === null || v === '') return fallback;
      if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) throw badRequest('validation_failed', `Bad Pagination Parameters: strconv.ParseUint: parsing "${v}": invalid syntax`);
      return Number(v);
    };
    const page = Math.max(1, num('page', 1));
    const perPage = Math.min(Math.max(1, num('per_page', 50)), 1000);
    const filter = q.get('filter') ?? '';
    const { rows, total } = await db(async (tx) => {
      const where = `u.instance_id = $1 and u.aud = $2 and ($3 = '' or u.email like '%' || $3 || '%' or u.raw_user_meta_data ->> 'full_name' ilike '%' || $3 || '%')`;
      const count = await tx.query<{ n: string }>(`select count(*)::text as n from auth.users u where ${where}`, [INSTANCE_ID, AUD, filter]);
      const list = await tx.query<{ u: Row; identities: Row[] }>(
        `${USER_SELECT} where ${where} order by u.created_at desc, u.id desc limit $4 offset $5`,
        [INSTANCE_ID, AUD, filter, perPage, (page - 1) * perPage],
      );
      return { rows: list.rows, total: Number(count.rows[0].n) };
    });
    const totalPages = Math.ceil(total / perPage);
    const link = (p: number) => {
      const u = new URL(info.url.toString());
      u.searchParams.set('page', String(p));
      u.searchParams.set('per_page', String(perPage));
      return `</admin/users?${u.searchParams.toString()}>`;
    };
    let header = '';
    if (totalPages > page) header += `${link(page + 1)}; rel="next", `;
    header += `${link(totalPages)}; rel="last"`;
    return json(info, 200, { users: rows.map((r) => userJson(r.u, r.identities)), aud: AUD }, {
      link: header,
      'x-total-count': String(total),
      'access-control-expose-headers': 'x-total-count, link, x-supabase-api-version',
    });
  }

  async function adminLoad(id: string) {
    if (!isUuid(id)) throw new AuthError(404, 'validation_failed', 'user_id must be an UUID');
    const found = await db((tx) => byId(tx, id));
    if (!found) throw new AuthError(404, 'user_not_found', 'User not found');
    return found;
  }

  function banUntil(value: string): string | null | undefined {
    if (!value) return undefined;
    if (value === 'none') return null;
    const duration = parseDuration(value, NaN);
    if (Number.isNaN(duration)) throw badRequest('validation_failed', `invalid format for ban duration: time: invalid duration "${value}"`);
    return duration === 0 ? null : new Date(clock.now() + duration).toISOString();
  }

  async function adminCreate(info: RequestInfo) {
    await requireAdmin(info);
    const p = await body(info);
    let email = p.str('email');
    if (!email && !p.str('phone')) throw badRequest('validation_failed', 'Cannot create a user without either an email or phone');
    if (p.str('phone')) throw badRequest('phone_provider_disabled', 'Phone users are not supported by the local stack');
    email = validateEmail(email);
    const id = p.str('id');
    if (id && (!isUuid(id) || id === INSTANCE_ID)) throw badRequest('validation_failed', 'ID must conform to the uuid v4 format');
    const exists = await db((tx) =>
      findUser(tx, `u.aud = $2 and (lower(u.email) = $1 or exists (select 1 from auth.identities i where i.user_id = u.id and i.email = $1))`, [email, AUD]),
    );
    if (exists) throw unprocessable('email_exists', 'A user with this email address has already been registered');
    const password = p.has('password') ? p.str('password') : '';
    const passwordHash = p.str('password_hash');
    if (password && passwordHash) throw badRequest('validation_failed', 'Only a password or a password hash should be provided');
    if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) throw badRequest('validation_failed', 'bcrypt: password length exceeds 72 bytes');
    if (passwordHash && !/^\$2[abxy]\$\d\d\$/.test(passwordHash)) throw internal('Error creating user');
    const hash = passwordHash || (await bcrypt.hash(password || randomPassword([], 64), BCRYPT_COST));
    const ban = banUntil(p.str('ban_duration'));
    const userMeta = p.obj('user_metadata') ?? {};
    const appMeta = p.obj('app_metadata');
    const role = p.str('role') || AUD;
    const emailConfirm = p.bool('email_confirm');
    const created = await db(async (tx) => {
      const user = await insertUser(tx, {
        id: id || undefined,
        email,
        passwordHash: hash,
        userMeta,
        appMeta: { provider: 'email', providers: ['email'] },
        anonymous: false,
        role,
      });
      await createEmailIdentity(tx, user, email);
      if (appMeta) await updateMeta(tx, user.id, 'raw_app_meta_data', appMeta);
      if (emailConfirm) await confirmUser(tx, user.id);
      if (ban !== undefined) await tx.query(`update auth.users set banned_until = $2 where id = $1`, [user.id, ban]);
      return (await byId(tx, user.id))!;
    });
    return json(info, 200, userJson(created.row, created.identities));
  }

  async function adminUpdate(info: RequestInfo, id: string) {
    await requireAdmin(info);
    const found = await adminLoad(id);
    const p = await body(info);
    const u = found.row;
    let email = p.str('email');
    if (email) email = validateEmail(email);
    if (p.str('phone')) throw badRequest('phone_provider_disabled', 'Phone users are not supported by the local stack');
    const ban = banUntil(p.str('ban_duration'));
    const password = p.has('password') ? p.str('password') : undefined;
    if (password !== undefined) checkPasswordStrength(password);
    const hash = password === undefined ? undefined : password === '' ? '' : await bcrypt.hash(password, BCRYPT_COST);
    const emailConfirm = p.bool('email_confirm');
    const role = p.str('role');
    const userMeta = p.obj('user_metadata');
    const appMeta = p.obj('app_metadata');
    if (email && email !== u.email) {
      const dup = await db((tx) => findUser(tx, `u.id <> $1 and lower(u.email) = $2`, [u.id, email]));
      if (dup) throw unprocessable('email_exists', 'A user with this email address has already been registered');
    }
    const updated = await db(async (tx) => {
      if (role) await tx.query(`update auth.users set role = $2 where id = $1`, [u.id, role]);
      if (emailConfirm) await confirmUser(tx, u.id);
      if (hash !== undefined) {
        await tx.query(`update auth.users set encrypted_password = $2, updated_at = $3 where id = $1`, [u.id, hash, clock.iso()]);
        await clearTokens(tx, u.id);
        await tx.query(`delete from auth.sessions where user_id = $1`, [u.id]);
      }
      if (email) {
        const identity = await tx.query(`select 1 from auth.identities where user_id = $1 and provider = 'email'`, [u.id]);
        if (identity.rowCount === 0) await createEmailIdentity(tx, u, email, {}, emailConfirm);
        else {
          await tx.query(
            `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', $3::boolean), updated_at = $4
              where user_id = $1 and provider = 'email'`,
            [u.id, email, emailConfirm, clock.iso()],
          );
        }
        if (u.is_anonymous && emailConfirm) await tx.query(`update auth.users set is_anonymous = false where id = $1`, [u.id]);
        await tx.query(`update auth.users set email = $2, updated_at = $3 where id = $1`, [u.id, email, clock.iso()]);
        await updateProviders(tx, u.id);
      }
      if (appMeta) await updateMeta(tx, u.id, 'raw_app_meta_data', appMeta);
      if (userMeta) await updateMeta(tx, u.id, 'raw_user_meta_data', userMeta);
      if (ban !== undefined) await tx.query(`update auth.users set banned_until = $2 where id = $1`, [u.id, ban]);
      return (await byId(tx, u.id))!;
    });
    return json(info, 200, userJson(updated.row, updated.identities));
  }

  async function adminDelete(info: RequestInfo, id: string) {
    await requireAdmin(info);
    const found = await adminLoad(id);
    const p = await body(info);
    const soft = p.bool('should_soft_delete');
    await db(async (tx) => {
      if (soft) {
        await tx.query(`delete from auth.sessions where user_id = $1`, [found.row.id]);
        await tx.query(`delete from auth.identities where user_id = $1`, [found.row.id]);
        await tx.query(
          `update auth.users set deleted_at = $2, updated_at = $2, encrypted_password = '', email = null, phone = null,
                  raw_app_meta_data = '{}'::jsonb, raw_user_meta_data = '{}'::jsonb where id = $1`,
          [found.row.id, clock.iso()],
        );
      } else {
        await tx.query(`delete from auth.users where id = $1`, [found.row.id]);
      }
    });
    return json(info, 200, {});
  }

  // ------------------------------------------------------------------ routing
  async function route(info: RequestInfo, path: string) {
    const method = info.req.method ?? 'GET';
    const p = path.replace(/\/+$/, '') || '/';
    const notAllowed = () => new AuthError(405, 'method_not_allowed', 'Method Not Allowed');
    switch (p) {
      case '/health':
        return json(info, 200, { version: 'local', name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' });
      case '/settings':
        return handleSettings(info);
      case '/.well-known/jwks.json':
        // Only the symmetric HS256 secret signs here, and GoTrue never publishes that.
        return json(info, 200, { keys: [] });
      case '/signup':
        if (method !== 'POST') throw notAllowed();
        return handleSignup(info);
      case '/token':
        if (method !== 'POST') throw notAllowed();
        return handleToken(info);
      case '/otp':
      case '/magiclink':
        if (method !== 'POST') throw notAllowed();
        return handleOtp(info);
      case '/verify':
        if (method !== 'GET' && method !== 'POST') throw notAllowed();
        return handleVerify(info, method);
      case '/recover':
        if (method !== 'POST') throw notAllowed();
        return handleRecover(info);
      case '/resend':
        if (method !== 'POST') throw notAllowed();
        return handleResend(info);
      case '/user':
        if (method === 'GET') return handleUserGet(info);
        if (method === 'PUT') return handleUserPut(info);
        throw notAllowed();
      case '/reauthenticate':
        if (method !== 'GET') throw notAllowed();
        return handleReauthenticate(info);
      case '/logout':
        if (method !== 'POST') throw notAllowed();
        return handleLogout(info);
      case '/invite':
        if (method !== 'POST') throw notAllowed();
        return adminInvite(info);
      case '/admin/users':
        if (method === 'GET') return adminList(info);
        if (method === 'POST') return adminCreate(info);
        throw notAllowed();
    }
    if (p === '/factors') {
      if (method !== 'POST') throw notAllowed();
      return handleEnroll(info);
    }
    const factorRoute = /^\/factors\/([^/]+)(?:\/(challenge|verify))?$/.exec(p);
    if (factorRoute) {
      const id = decodeURIComponent(factorRoute[1]);
      if (factorRoute[2] === 'challenge' && method === 'POST') return handleChallenge(info, id);
      if (factorRoute[2] === 'verify' && method === 'POST') return handleFactorVerify(info, id);
      if (!factorRoute[2] && method === 'DELETE') return handleUnenroll(info, id);
      throw notAllowed();
    }
    const adminFactor = /^\/admin\/users\/([^/]+)\/factors(?:\/([^/]+))?$/.exec(p);
    if (adminFactor) {
      return adminFactors(info, decodeURIComponent(adminFactor[1]), adminFactor[2] === undefined ? undefined : decodeURIComponent(adminFactor[2]), method);
    }
    const admin = /^\/admin\/users\/([^/]+)$/.exec(p);
    if (admin) {
      const id = decodeURIComponent(admin[1]);
      if (method === 'GET') {
        await requireAdmin(info);
        const found = await adminLoad(id);
        return json(info, 200, userJson(found.row, found.identities));
      }
      if (method === 'PUT') return adminUpdate(info, id);
      if (method === 'DELETE') return adminDelete(info, id);
      throw notAllowed();
    }
    throw new AuthError(404, 'not_found', 'Not Found');
  }

  return {
    close: () => bcrypt.close(),
    async handle(req, res, path) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const info: RequestInfo = {
        req,
        res,
        url,
        ip: clientIp(req, ctx.config.api.trustedProxies),
        userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : '',
      };
      try {
        await route(info, path);
      } catch (error) {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        if (error instanceof AuthError) return sendError(req, res, error);
        if (error instanceof HttpError) return sendError(req, res, new AuthError(error.status, '', error.message));
        const unavailable = databaseUnavailable(error);
        if (unavailable) {
          ctx.log.warn(`auth ${req.method} ${path}: ${(error as Error).message}`);
          return sendError(req, res, unavailable);
        }
        // Values Postgres refuses (e.g. \u0000 in metadata) are the caller's error, as is a
        // unique violation from two requests racing for one address.
        const pgCode = isPgError(error) ? pgErrorFields(error).code ?? '' : '';
        if (pgCode.startsWith('22')) return sendError(req, res, badRequest('validation_failed', `Invalid input: ${pgErrorFields(error).message}`));
        if (pgCode === '23505') return sendError(req, res, new AuthError(409, 'conflict', 'A conflicting request was processed at the same time'));
        const detail = isPgError(error) ? pgErrorFields(error).message : (error as Error)?.stack ?? String(error);
        ctx.log.error(`auth ${req.method} ${path}: ${detail}`);
        return sendError(req, res, internal('Internal server error'));
      }
    },
  };
}

// Re-exported for tests and the benchmark.
export { apiVersion, tokenHash };
