import { AuthError, badRequest, clock, internal, parseDuration, unprocessable } from '../support.ts';
import {
  INSTANCE_ID,
  AUD,
  BCRYPT_COST,
  MAX_PASSWORD_BYTES,
  type Row,
  tokenHash,
  generateOtp,
  randomPassword,
  validateEmail,
  isUuid,
  userJson,
  factorJson,
  USER_SELECT,
  findUser,
  byId,
  byEmail,
  isConfirmed,
  type RequestInfo,
} from '../model.ts';
import type { AuthCore } from '../core.ts';
import type { createMfaRoutes } from './mfa.ts';

/** /invite and /admin/users[/{id}[/factors]] (GoTrue admin.go, invite.go). */
export function createAdminRoutes(core: AuthCore, mfa: Pick<ReturnType<typeof createMfaRoutes>, 'loadFactor' | 'downgradeSessions'>) {
  const {
    cfg,
    bcrypt,
    db,
    checkPasswordStrength,
    sendMail,
    saveOneTimeToken,
    insertUser,
    createEmailIdentity,
    updateMeta,
    confirmUser,
    updateProviders,
    clearTokens,
    auditFactor,
    requireAdmin,
    required,
    isRedirectValid,
    referrer,
    actionLink,
    body,
    json,
  } = core;
  const { loadFactor, downgradeSessions } = mfa;

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
        if (name)
          await tx.query(`update auth.mfa_factors set friendly_name = $2, updated_at = $3 where id = $1`, [factor.id, name, clock.iso()]);
        await auditFactor(
          tx,
          found.row,
          'factor_updated',
          { user_id: found.row.id, factor_id: factor.id, factor_type: factor.factor_type },
          info,
        );
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
    if (existing && isConfirmed(existing.row))
      throw unprocessable('email_exists', 'A user with this email address has already been registered');
    const invited = await db(async (tx) => {
      const user =
        existing?.row ??
        (await insertUser(tx, {
          email,
          passwordHash: '',
          userMeta: data,
          appMeta: { provider: 'email', providers: ['email'] },
          anonymous: false,
        }));
      if (!existing) await createEmailIdentity(tx, user, email, data);
      const otp = generateOtp(cfg.email.otpLength);
      const hash = tokenHash(email, otp);
      await sendMail('invite', user, { to: email, otp, hash, verifyType: 'invite', info });
      const now = clock.iso();
      await tx.query(
        `update auth.users set confirmation_token = $2, confirmation_sent_at = $3, invited_at = $3, updated_at = $3 where id = $1`,
        [user.id, hash, now],
      );
      await saveOneTimeToken(tx, user.id, 'confirmation_token', hash, email);
      return (await byId(tx, user.id))!;
    });
    return json(info, 200, userJson(invited.row, invited.identities));
  }

  /**
   * POST /admin/generate_link (GoTrue mail.go adminGenerateLink): stores the token a mail of that
   * type would carry and answers the link, the code and its hash instead of sending anything.
   * magiclink for an unknown address becomes a signup with a random password, as in GoTrue.
   */
  async function adminGenerateLink(info: RequestInfo) {
    await requireAdmin(info);
    const p = await body(info);
    let type = p.str('type');
    const email = validateEmail(p.str('email'));
    const data = p.obj('data') ?? {};
    const bodyRedirect = p.str('redirect_to');
    const redirect = isRedirectValid(bodyRedirect) ? bodyRedirect : referrer(info);
    let password = p.str('password');
    const existing = await db((tx) => byEmail(tx, email));
    if (!existing) {
      if (type === 'magiclink') {
        type = 'signup';
        password = randomPassword(required, 64);
      } else if (type === 'recovery' || type === 'email_change_current' || type === 'email_change_new') {
        throw new AuthError(404, 'user_not_found', 'User with this email not found');
      }
    }
    if (!existing && type === 'signup') {
      if (password === '') throw badRequest('validation_failed', 'Signup requires a valid password');
      checkPasswordStrength(password);
    }
    const otp = generateOtp(cfg.email.otpLength);
    const hash = tokenHash(email, otp);
    const passwordHash = !existing && type === 'signup' ? await bcrypt.hash(password, BCRYPT_COST) : '';
    const result = await db(async (tx) => {
      const now = clock.iso();
      let user = existing?.row;
      const create = async (hashed: string) => {
        const created = await insertUser(tx, {
          email,
          passwordHash: hashed,
          userMeta: data,
          appMeta: { provider: 'email', providers: ['email'] },
          anonymous: false,
        });
        await createEmailIdentity(tx, created, email);
        return created;
      };
      let linkHash = hash;
      switch (type) {
        case 'magiclink':
        case 'recovery':
          await tx.query(`update auth.users set recovery_token = $2, recovery_sent_at = $3 where id = $1`, [user!.id, hash, now]);
          await saveOneTimeToken(tx, user!.id, 'recovery_token', hash, email);
          break;
        case 'invite':
        case 'signup':
          if (user && isConfirmed(user)) throw unprocessable('email_exists', 'A user with this email address has already been registered');
          if (!user) user = await create(passwordHash);
          else if (type === 'signup') await updateMeta(tx, user.id, 'raw_user_meta_data', data);
          await tx.query(
            `update auth.users set confirmation_token = $2, confirmation_sent_at = $3${type === 'invite' ? ', invited_at = $3' : ''} where id = $1`,
            [user.id, hash, now],
          );
          await saveOneTimeToken(tx, user.id, 'confirmation_token', hash, email);
          break;
        case 'email_change_current':
        case 'email_change_new': {
          if (!cfg.email.doubleConfirmChanges && type === 'email_change_current')
            throw badRequest('validation_failed', 'Enable secure email change to generate link for current email');
          const newEmail = validateEmail(p.str('new_email'));
          const dup = await findUser(tx, `u.aud = $2 and u.id <> $3 and lower(u.email) = $1`, [newEmail, AUD, user!.id]);
          if (dup) throw unprocessable('email_exists', 'A user with this email address has already been registered');
          // GoTrue writes both token columns: the one of the other type keeps what it held.
          const current = type === 'email_change_current' ? hash : String(user!.email_change_token_current ?? '');
          const fresh = type === 'email_change_new' ? tokenHash(newEmail, otp) : String(user!.email_change_token_new ?? '');
          linkHash = type === 'email_change_current' ? current : fresh;
          await tx.query(
            `update auth.users set email_change = $2, email_change_token_current = $3, email_change_token_new = $4,
                    email_change_confirm_status = 0, email_change_sent_at = $5 where id = $1`,
            [user!.id, newEmail, current, fresh, now],
          );
          if (current) await saveOneTimeToken(tx, user!.id, 'email_change_token_current', current, email);
          if (fresh) await saveOneTimeToken(tx, user!.id, 'email_change_token_new', fresh, newEmail);
          break;
        }
        default:
          throw badRequest('validation_failed', `Invalid email action link type requested: ${type}`);
      }
      const linkType = type.startsWith('email_change') ? 'email_change' : type;
      return { user: (await byId(tx, user!.id))!, link: actionLink(linkHash, linkType, redirect) };
    });
    return json(info, 200, {
      ...userJson(result.user.row, result.user.identities),
      action_link: result.link,
      email_otp: otp,
      hashed_token: hash,
      verification_type: type,
      redirect_to: redirect,
    });
  }

  async function adminList(info: RequestInfo) {
    await requireAdmin(info);
    const q = info.url.searchParams;
    const num = (name: string, fallback: number) => {
      const v = q.get(name);
      if (v === null || v === '') return fallback;
      if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v)))
        throw badRequest('validation_failed', `Bad Pagination Parameters: strconv.ParseUint: parsing "${v}": invalid syntax`);
      return Number(v);
    };
    const page = Math.max(1, num('page', 1));
    const perPage = Math.min(Math.max(1, num('per_page', 50)), 1000);
    const filter = q.get('filter') ?? '';
    const { rows, total } = await db(async (tx) => {
      const where = `u.instance_id = $1 and u.aud = $2 and ($3 = '' or u.email like '%' || $3 || '%' or u.raw_user_meta_data ->> 'full_name' ilike '%' || $3 || '%')`;
      const count = await tx.query<{ n: string }>(`select count(*)::text as n from auth.users u where ${where}`, [
        INSTANCE_ID,
        AUD,
        filter,
      ]);
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
    return json(
      info,
      200,
      { users: rows.map((r) => userJson(r.u, r.identities)), aud: AUD },
      {
        link: header,
        'x-total-count': String(total),
        'access-control-expose-headers': 'x-total-count, link, x-supabase-api-version',
      },
    );
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
      findUser(
        tx,
        `u.aud = $2 and (lower(u.email) = $1 or exists (select 1 from auth.identities i where i.user_id = u.id and i.email = $1))`,
        [email, AUD],
      ),
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

  return { adminFactors, adminInvite, adminGenerateLink, adminList, adminLoad, banUntil, adminCreate, adminUpdate, adminDelete };
}
