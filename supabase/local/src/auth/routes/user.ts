import { AuthError, badRequest, clock, forbidden, unprocessable } from '../support.ts';
import {
  AUD,
  BCRYPT_COST,
  type Row,
  tokenHash,
  validateEmail,
  ms,
  userJson,
  findUser,
  byId,
  isConfirmed,
  hasPassword,
  type RequestInfo,
} from '../model.ts';
import type { AuthCore } from '../core.ts';
import type { createVerifyRoutes } from './verify.ts';

/** GET and PUT /user (GoTrue user.go). */
export function createUserRoutes(core: AuthCore, verify: Pick<ReturnType<typeof createVerifyRoutes>, 'otpValid' | 'confirmEmailChange'>) {
  const {
    cfg,
    autoconfirm,
    limiters,
    bcrypt,
    db,
    limit,
    checkPasswordStrength,
    sendEmailChange,
    createEmailIdentity,
    updateMeta,
    updateProviders,
    requireUser,
    body,
    json,
  } = core;
  const { otpValid, confirmEmailChange } = verify;

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
    // GoTrue's UserUpdate: with a verified factor, a new password or e-mail address needs an aal2
    // session, whatever the config (a stolen password alone must not take the account over).
    const factors = Array.isArray(u.factors) ? (u.factors as Row[]) : [];
    if (factors.some((f) => f.status === 'verified') && session?.aal !== 'aal2') {
      if ((password !== undefined && password !== '') || (email && email !== (u.email ?? ''))) {
        throw new AuthError(401, 'insufficient_aal', 'AAL2 session is required to update email or password when MFA is enabled.');
      }
    }
    if (u.is_anonymous && password) {
      if (!email)
        throw unprocessable('validation_failed', 'Updating password of an anonymous user without an email or phone is not allowed');
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

  return { handleUserGet, handleUserPut };
}
