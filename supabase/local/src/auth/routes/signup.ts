import { randomUUID } from 'node:crypto';
import { isPgError, pgErrorFields } from '../../db/types.ts';
import { AuthError, badRequest, clock, databaseUnavailable, internal, unprocessable } from '../support.ts';
import { AUD, BCRYPT_COST, type Row, validateEmail, userJson, byId, byEmail, isConfirmed, type RequestInfo } from '../model.ts';
import type { AuthCore } from '../core.ts';

/** POST /signup (GoTrue signup.go). */
export function createSignupRoutes(core: AuthCore) {
  const {
    cfg,
    autoconfirm,
    emailEnabled,
    limiters,
    bcrypt,
    db,
    limit,
    checkPasswordStrength,
    sendConfirmation,
    insertUser,
    createEmailIdentity,
    confirmUser,
    issueSession,
    body,
    json,
  } = core;

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
        const code = isPgError(error) ? (pgErrorFields(error).code ?? '') : '';
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

  return { signupEmail, handleSignup };
}
