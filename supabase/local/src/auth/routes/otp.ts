import { badRequest, unprocessable } from '../support.ts';
import { randomPassword, validateEmail, byEmail, isConfirmed, type RequestInfo } from '../model.ts';
import type { AuthCore } from '../core.ts';
import type { createSignupRoutes } from './signup.ts';

/** POST /otp and /magiclink (GoTrue otp.go, magic_link.go). */
export function createOtpRoutes(core: AuthCore, signup: Pick<ReturnType<typeof createSignupRoutes>, 'signupEmail'>) {
  const { required, emailEnabled, limiters, db, limit, sendRecoveryLike, body, json } = core;
  const { signupEmail } = signup;

  async function handleOtp(info: RequestInfo) {
    limit(limiters.otp, info);
    const p = await body(info);
    const email = p.str('email');
    const phone = p.str('phone');
    if (email && phone) throw badRequest('validation_failed', 'Only an email address or phone number should be provided');
    if (email && p.str('channel')) throw badRequest('validation_failed', 'Channel should only be specified with Phone OTP');
    const createUser = p.bool('create_user', true);
    const data = p.obj('data') ?? {};
    if (!email && !phone) throw badRequest('validation_failed', 'One of email or phone must be set');
    if (phone) throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
    const normalized = validateEmail(email);
    if (!createUser) {
      const exists = await db((tx) => byEmail(tx, normalized));
      if (!exists) throw unprocessable('otp_disabled', 'Signups not allowed for otp');
    }
    if (!emailEnabled) throw unprocessable('email_provider_disabled', 'Email logins are disabled');
    const found = await db((tx) => byEmail(tx, normalized));
    if (!found || !isConfirmed(found.row)) {
      // A new (or never confirmed) address: signed up with a random password and sent the
      // confirmation code. Either way the answer is the same `{}`.
      const result = await signupEmail(info, { email: normalized, password: randomPassword(required), data });
      if (result.kind === 'session') {
        const user = (await db((tx) => byEmail(tx, normalized)))!;
        await db((tx) => sendRecoveryLike(tx, user.row, info, 'magic_link'));
      }
      return json(info, 200, {});
    }
    await db((tx) => sendRecoveryLike(tx, found.row, info, 'magic_link'));
    return json(info, 200, {});
  }

  /** Counts a wrong code for an address; after too many its outstanding codes are void. */

  return { handleOtp };
}
