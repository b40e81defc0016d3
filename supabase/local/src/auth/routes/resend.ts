import { badRequest } from '../support.ts';
import { validateEmail, byEmail, isConfirmed, type RequestInfo } from '../model.ts';
import type { AuthCore } from '../core.ts';

/** POST /resend (GoTrue resend.go). */
export function createResendRoutes(core: AuthCore) {
  const { emailEnabled, limiters, db, limit, sendConfirmation, sendEmailChange, body, json } = core;

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

  return { handleResend };
}
