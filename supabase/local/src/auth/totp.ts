import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * TOTP as GoTrue does it (github.com/pquerna/otp): RFC 6238 with HMAC-SHA1, 6 digits, 30-second
 * steps, one step of skew either way; secrets of 20 random bytes in base32 without padding; the
 * otpauth URI with its query sorted by key. Pure node:crypto, so tests compute codes with it too.
 */

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
export const TOTP_SKEW = 1;

export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (case-insensitive, padding and spaces ignored); throws on other characters. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const c of clean) {
    const i = B32.indexOf(c);
    if (i < 0) throw new Error('invalid base32 character');
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 20 random bytes (pquerna/otp's default SecretSize), base32 without padding. */
export const newTotpSecret = () => base32Encode(randomBytes(20));

/** RFC 4226 HOTP value for a counter, zero-padded to `digits`. */
export function hotp(secret: string, counter: number, digits = TOTP_DIGITS): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', base32Decode(secret)).update(msg).digest();
  const offset = mac[mac.length - 1] & 0xf;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(code).padStart(digits, '0');
}

/** The TOTP code for a moment (milliseconds since the epoch). */
export const totpCode = (secret: string, atMs = Date.now()) => hotp(secret, Math.floor(atMs / 1000 / TOTP_PERIOD));

/** Valid when the code matches the current step or one step either side (pquerna's Skew: 1). */
export function totpValid(code: string, secret: string, atMs = Date.now()): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  const counter = Math.floor(atMs / 1000 / TOTP_PERIOD);
  let ok = false;
  for (let d = -TOTP_SKEW; d <= TOTP_SKEW; d++) {
    if (counter + d < 0) continue;
    const expected = Buffer.from(hotp(secret, counter + d));
    if (timingSafeEqual(expected, Buffer.from(code))) ok = true;
  }
  return ok;
}

/**
 * The time step a code belongs to, among the steps totpValid accepts (one either side), that is
 * newer than `after` (the factor's last accepted step): undefined when there is none. RFC 6238
 * section 5.2: a verifier must not accept an OTP a second time once it has been accepted, so a
 * factor only moves forward, step by step.
 */
export function totpStep(code: string, secret: string, atMs = Date.now(), after = -1): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const counter = Math.floor(atMs / 1000 / TOTP_PERIOD);
  let matched: number | undefined;
  for (let d = -TOTP_SKEW; d <= TOTP_SKEW; d++) {
    const step = counter + d;
    if (step < 0) continue;
    if (timingSafeEqual(Buffer.from(hotp(secret, step)), Buffer.from(code)) && step > after) matched = step;
  }
  return matched;
}

/** Go's url.QueryEscape (spaces as +) as used by pquerna's EncodeQuery... which writes %20. */
const queryEscape = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
/** Go's url.URL.EscapedPath for "/issuer:account": keeps : @ and the sub-delims. */
const pathEscape = (s: string) =>
  encodeURI(s)
    .replace(/[?#]/g, (c) => encodeURIComponent(c))
    .replace(/%5B|%5D/g, (m) => m);

/** otpauth://totp/<issuer>:<account>?algorithm=SHA1&digits=6&issuer=<issuer>&period=30&secret=<secret> */
export function otpauthUri(issuer: string, account: string, secret: string): string {
  const query = [
    ['algorithm', 'SHA1'],
    ['digits', String(TOTP_DIGITS)],
    ['issuer', issuer],
    ['period', String(TOTP_PERIOD)],
    ['secret', secret],
  ]
    .map(([k, v]) => `${k}=${queryEscape(v)}`)
    .join('&');
  return `otpauth://totp${pathEscape('/' + issuer + ':' + account)}?${query}`;
}
