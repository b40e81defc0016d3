import { badRequest } from '../support.ts';
import { validateEmail, byEmail, type RequestInfo } from '../model.ts';
import type { AuthCore } from '../core.ts';

/** POST /recover (GoTrue recover.go). */
export function createRecoverRoutes(core: AuthCore) {
  const { emailEnabled, limiters, db, limit, sendRecoveryLike, body, json } = core;

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

  return { handleRecover };
}
