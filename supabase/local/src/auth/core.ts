import { randomBytes, randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { createBcryptPool } from './bcrypt.ts';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { StackContext } from '../context.ts';
import { type Queryable, pgErrorFields } from '../db/types.ts';
import { asPlatformRole } from '../db/request.ts';
import { HttpError, gatewayBearer, readBody } from '../http.ts';
import { loadMailTemplates, type MailType } from './mails.ts';
import {
  AuthError,
  IntervalLimiter,
  Params,
  TokenBucket,
  WeakPasswordError,
  badRequest,
  clock,
  databaseUnavailable,
  forbidden,
  internal,
  parseDuration,
  tooMany,
} from './support.ts';
import {
  INSTANCE_ID,
  AUD,
  ADMIN_ROLES,
  AAL2_METHODS,
  BCRYPT_COST,
  MAX_PASSWORD_BYTES,
  CHARSETS,
  type Row,
  parseHook,
  tokenHash,
  generateOtp,
  secureAlphanumeric,
  isUuid,
  ms,
  userJson,
  byId,
  isBanned,
  type RequestInfo,
} from './model.ts';

/**
 * The state and helpers every auth endpoint shares (limiters, mail, users, sessions, tokens,
 * request authentication, body parsing), built once per service: GoTrue's API struct.
 */
export function createAuthCore(ctx: StackContext) {
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
          .map((part) =>
            part
              .split('*')
              .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
              .join('[^./]*'),
          )
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
  /** GoTrue's mailer getPath: the /verify link a mail (or admin generate_link) carries. */
  const actionLink = (hash: string, verifyType: string, redirect: string) =>
    `${ctx.apiUrl}/auth/v1/verify?token=${encodeURIComponent(hash)}&type=${verifyType}&redirect_to=${encodeURIComponent(redirect)}`;

  async function sendMail(
    type: MailType,
    user: Row,
    opts: { to: string; otp: string; hash: string; verifyType: string; info: RequestInfo; newEmail?: string },
  ) {
    if (rl.email_sent <= 0 || (!autoconfirm && !emailLimiter.allow())) {
      throw tooMany('over_email_send_rate_limit', 'email rate limit exceeded');
    }
    const redirect = referrer(opts.info);
    const confirmationUrl = actionLink(opts.hash, opts.verifyType, redirect);
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
    await tx.query(`update auth.users set confirmation_token = $2, confirmation_sent_at = $3, updated_at = $3 where id = $1`, [
      user.id,
      hash,
      clock.iso(),
    ]);
    await saveOneTimeToken(tx, user.id, 'confirmation_token', hash, user.email);
    failedCodes.delete(user.email);
  }

  async function sendRecoveryLike(tx: Queryable, user: Row, info: RequestInfo, type: 'recovery' | 'magic_link') {
    checkFrequency(user.recovery_sent_at);
    const otp = generateOtp(cfg.email.otpLength);
    const hash = tokenHash(user.email, otp);
    await sendMail(type, user, { to: user.email, otp, hash, verifyType: type === 'recovery' ? 'recovery' : 'magiclink', info });
    await tx.query(`update auth.users set recovery_token = $2, recovery_sent_at = $3, updated_at = $3 where id = $1`, [
      user.id,
      hash,
      clock.iso(),
    ]);
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
      await sendMail('email_change', withChange, {
        to: user.email,
        otp: otpCurrent,
        hash: hashCurrent,
        verifyType: 'email_change',
        info,
        newEmail,
      });
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
      [
        INSTANCE_ID,
        id,
        AUD,
        u.role ?? AUD,
        u.email,
        u.passwordHash,
        JSON.stringify(u.appMeta),
        JSON.stringify(u.userMeta),
        now,
        u.anonymous,
      ],
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
    await tx.query(`update auth.users set confirmation_token = '', email_confirmed_at = $2, updated_at = $2 where id = $1`, [
      userId,
      clock.iso(),
    ]);
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
      const status =
        Number.isInteger(out.error.http_code) && out.error.http_code >= 400 && out.error.http_code < 600 ? out.error.http_code : 500;
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
    return Object.fromEntries(
      Object.keys(c)
        .sort()
        .map((k) => [k, c[k]]),
    );
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
    // An API key the gateway handed on reaches GoTrue without "Bearer " (http.ts gatewayBearer):
    // a request without the caller's own token is told so, not that the key lacks a sub claim.
    const m = typeof header === 'string' && !gatewayBearer.has(info.req) ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!m) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
    let claims: Row;
    try {
      ({ payload: claims } = await jwtVerify(m[1], key, { algorithms: ['HS256'], currentDate: new Date(clock.now()) }));
    } catch (error) {
      let reason = 'token is malformed: could not parse the token';
      if (error instanceof joseErrors.JWTExpired) reason = 'token has invalid claims: token is expired';
      else if (error instanceof joseErrors.JWSSignatureVerificationFailed) reason = 'token signature is invalid: signature is invalid';
      else if (error instanceof joseErrors.JOSEAlgNotAllowed)
        reason = 'token is unverifiable: error while executing keyfunc: signing method is not allowed';
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
      const session =
        sessionId && sessionId !== INSTANCE_ID
          ? ((await tx.query<{ s: Row }>(`select to_jsonb(s) as s from auth.sessions s where id = $1`, [sessionId])).rows[0]?.s ?? null)
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

  return {
    cfg,
    templates,
    hook,
    required,
    autoconfirm,
    emailEnabled,
    maxFrequencyMs,
    otpExpiryMs,
    key,
    rl,
    limiters,
    emailLimiter,
    failedCodes,
    bcrypt,
    dummyHash,
    dummyCompare,
    db,
    issuer,
    limit,
    checkPasswordStrength,
    globToRegExp,
    allowList,
    isRedirectValid,
    referrer,
    actionLink,
    sendMail,
    checkFrequency,
    saveOneTimeToken,
    sendConfirmation,
    sendRecoveryLike,
    sendEmailChange,
    insertUser,
    createEmailIdentity,
    updateMeta,
    confirmUser,
    updateProviders,
    clearTokens,
    amrFor,
    accessToken,
    runHook,
    addAmrClaim,
    auditFactor,
    recordLogin,
    issueSession,
    authenticate,
    requireUser,
    requireAdmin,
    body,
    json,
  };
}

export type AuthCore = ReturnType<typeof createAuthCore>;
