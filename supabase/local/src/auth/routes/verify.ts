import type { Queryable } from '../../db/types.ts';
import { badRequest, clock, forbidden, unprocessable } from '../support.ts';
import {
  INSTANCE_ID,
  AUD,
  BCRYPT_COST,
  MAX_FAILED_CODE_ATTEMPTS,
  type Row,
  tokenHash,
  randomPassword,
  validateEmail,
  ms,
  type LoadedUser,
  findUser,
  byEmail,
  isConfirmed,
  hasPassword,
  isBanned,
  type RequestInfo,
} from '../model.ts';
import type { AuthCore } from '../core.ts';

/** GET and POST /verify (GoTrue verify.go). */
export function createVerifyRoutes(core: AuthCore) {
  const {
    cfg,
    autoconfirm,
    otpExpiryMs,
    limiters,
    failedCodes,
    bcrypt,
    db,
    limit,
    referrer,
    createEmailIdentity,
    confirmUser,
    updateProviders,
    clearTokens,
    issueSession,
    body,
    json,
  } = core;

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
      if (method === 'POST' && (type === 'sms' || type === 'phone_change'))
        throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
      throw badRequest(
        'validation_failed',
        method === 'POST' && token ? 'Unsupported verification type' : 'Invalid email verification type',
      );
    }
    const usingHash = token === '';

    const outcome = await db(async (tx) => {
      let user: LoadedUser | undefined;
      let effective = type;
      if (usingHash) {
        const column = {
          signup: 'confirmation_token',
          invite: 'confirmation_token',
          recovery: 'recovery_token',
          magiclink: 'recovery_token',
        }[type];
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
          valid =
            otpValid(hash, u.email_change_token_current, u.email_change_sent_at) ||
            otpValid(hash, u.email_change_token_new, u.email_change_sent_at);
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
          await tx.query(`update auth.users set encrypted_password = $2 where id = $1`, [
            u.id,
            await bcrypt.hash(randomPassword([], 64), BCRYPT_COST),
          ]);
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

  return { codeFailed, otpValid, handleVerify, confirmEmailChange };
}
