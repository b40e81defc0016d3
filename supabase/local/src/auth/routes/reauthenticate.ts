import { clock, unprocessable } from '../support.ts';
import { tokenHash, generateOtp, type RequestInfo } from '../model.ts';
import type { AuthCore } from '../core.ts';

/** GET /reauthenticate (GoTrue reauthenticate.go). */
export function createReauthenticateRoutes(core: AuthCore) {
  const { cfg, db, sendMail, checkFrequency, saveOneTimeToken, requireUser, json } = core;

  async function handleReauthenticate(info: RequestInfo) {
    const { user } = await requireUser(info);
    const u = user.row;
    if (!u.email) throw unprocessable('validation_failed', 'Reauthentication requires the user to have an email or a phone number');
    await db(async (tx) => {
      checkFrequency(u.reauthentication_sent_at);
      const otp = generateOtp(cfg.email.otpLength);
      const hash = tokenHash(u.email, otp);
      await sendMail('reauthentication', u, { to: u.email, otp, hash, verifyType: 'reauthentication', info });
      await tx.query(`update auth.users set reauthentication_token = $2, reauthentication_sent_at = $3 where id = $1`, [
        u.id,
        hash,
        clock.iso(),
      ]);
      await saveOneTimeToken(tx, u.id, 'reauthentication_token', hash, u.email);
    });
    return json(info, 200, {});
  }

  return { handleReauthenticate };
}
