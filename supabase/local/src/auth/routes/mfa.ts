import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/types.ts';
import { newTotpSecret, otpauthUri, totpStep } from '../totp.ts';
import { qrSvg } from '../qr.ts';
import { AuthError, badRequest, clock, forbidden, internal, unprocessable } from '../support.ts';
import { INSTANCE_ID, type Row, secureAlphanumeric, isUuid, ms, userJson, byId, type RequestInfo, inet } from '../model.ts';
import type { AuthCore } from '../core.ts';

/** /factors: enroll, challenge, verify, unenroll (GoTrue mfa.go). */
export function createMfaRoutes(core: AuthCore) {
  const { cfg, limiters, db, limit, accessToken, addAmrClaim, auditFactor, requireUser, body, json } = core;

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
        throw unprocessable(
          'mfa_factor_name_conflict',
          `A factor with the friendly name ${JSON.stringify(friendlyName)} for this user already exists`,
        );
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
      throw badRequest(
        'bad_json',
        `Could not parse request body as JSON: uuid: incorrect UUID length ${challengeId.length} in string ${JSON.stringify(challengeId)}`,
      );
    }
    if (code === '') throw badRequest('validation_failed', 'Code needs to be non-empty');
    if (!cfg.mfa.totp.verifyEnabled) throw unprocessable('mfa_totp_verify_not_enabled', 'MFA verification is disabled for TOTP');
    const outcome = await db(async (tx) => {
      // validateChallenge
      const challenge = challengeId
        ? (
            await tx.query<{ c: Row }>(`select to_jsonb(c) as c from auth.mfa_challenges c where id = $1 and factor_id = $2 for update`, [
              challengeId,
              factor.id,
            ])
          ).rows[0]?.c
        : undefined;
      if (!challenge) throw unprocessable('mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
      if (challenge.verified_at || String(challenge.ip_address).replace(/\/\d+$/, '') !== inet(info.ip)) {
        throw unprocessable('mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
      }
      if ((ms(challenge.created_at) ?? 0) + challengeExpiryMs < clock.now()) {
        await tx.query(`delete from auth.mfa_challenges where id = $1`, [challenge.id]);
        return {
          error: unprocessable(
            'mfa_challenge_expired',
            `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
          ),
        };
      }
      // GoTrue checks the code against the clock only (totp.ValidateCustom, skew 1), so one code
      // verifies any number of challenges for 90 seconds. RFC 6238 section 5.2 forbids that: the
      // factor keeps the last accepted step (locked here, so two verifies of one code cannot both
      // pass), and a code of that step or an older one is answered like a wrong one.
      const last = (
        await tx.query<{ step: string | null }>(`select last_totp_step::text as step from auth.mfa_factors where id = $1 for update`, [
          factor.id,
        ])
      ).rows[0]?.step;
      const step = totpStep(code, factor.secret ?? '', clock.now(), last == null ? -1 : Number(last));
      if (step === undefined) {
        return { error: unprocessable('mfa_verification_failed', 'Invalid TOTP code entered') };
      }
      await tx.query(`update auth.mfa_factors set last_totp_step = $2 where id = $1`, [factor.id, step]);
      const now = clock.iso();
      await auditFactor(
        tx,
        user.row,
        'verification_attempted',
        { factor_id: factor.id, challenge_id: challenge.id, factor_type: factor.factor_type },
        info,
      );
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
    await tx.query(`update auth.sessions set aal = 'aal1', factor_id = null where user_id = $1 and factor_id = $2`, [
      factor.user_id,
      factor.id,
    ]);
  }

  async function handleUnenroll(info: RequestInfo, factorId: string) {
    const { user, session } = await requireFactorUser(info, 'unenroll a factor');
    const factor = await loadFactor(user.row.id, factorId);
    if (factor.status === 'verified' && session.aal !== 'aal2') {
      throw unprocessable('insufficient_aal', 'AAL2 required to unenroll verified factor');
    }
    await db(async (tx) => {
      await tx.query(`delete from auth.mfa_factors where id = $1`, [factor.id]);
      await auditFactor(
        tx,
        user.row,
        'factor_unenrolled',
        { factor_id: factor.id, factor_status: factor.status, session_id: session.id },
        info,
      );
      await downgradeSessions(tx, factor);
    });
    return json(info, 200, { id: factor.id });
  }

  return {
    requireFactorUser,
    loadFactor,
    challengeExpiryMs,
    factorExpiryMs,
    handleEnroll,
    handleChallenge,
    handleFactorVerify,
    downgradeSessions,
    handleUnenroll,
  };
}
