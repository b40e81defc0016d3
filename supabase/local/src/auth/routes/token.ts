import { isIP } from 'node:net';
import { WeakPasswordError, badRequest, clock, unprocessable } from '../support.ts';
import {
  INSTANCE_ID,
  type Row,
  secureAlphanumeric,
  isUuid,
  ms,
  userJson,
  byId,
  byEmail,
  isConfirmed,
  hasPassword,
  isBanned,
  type RequestInfo,
} from '../model.ts';
import type { AuthCore } from '../core.ts';

/** POST /token: password and refresh_token grants (GoTrue token.go, token_refresh.go). */
export function createTokenRoutes(core: AuthCore) {
  const { cfg, emailEnabled, limiters, bcrypt, dummyCompare, db, limit, checkPasswordStrength, accessToken, issueSession, body, json } =
    core;

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

  return { handleToken, passwordGrant, refreshGrant };
}
