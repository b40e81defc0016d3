import { createHash } from 'node:crypto';

/**
 * Stripe's documented test cards (docs: "Testing", "Decline codes", "3D Secure authentication"):
 * what the sandbox does for a card number. Any other number that passes the Luhn check is
 * refused as Stripe's test mode refuses a real card (`test_mode_live_card`).
 */
export type CardBehaviour =
  | { kind: 'succeed'; refundFails?: true }
  | { kind: 'authenticate' }
  | { kind: 'decline'; code: string; declineCode: string; message: string };

const declined = (declineCode: string, message = 'Your card was declined.', code = 'card_declined'): CardBehaviour => ({
  kind: 'decline',
  code,
  declineCode,
  message,
});

const TEST_CARDS: Record<string, CardBehaviour> = {
  // Succeed (one per brand, as in Stripe's list).
  '4242424242424242': { kind: 'succeed' },
  '4000056655665556': { kind: 'succeed' },
  '5555555555554444': { kind: 'succeed' },
  '2223003122003222': { kind: 'succeed' },
  '5200828282828210': { kind: 'succeed' },
  '5105105105105100': { kind: 'succeed' },
  '378282246310005': { kind: 'succeed' },
  '371449635398431': { kind: 'succeed' },
  '6011111111111117': { kind: 'succeed' },
  '3566002020360505': { kind: 'succeed' },
  '4000002760000016': { kind: 'succeed' },
  // Refunds fail: the charge succeeds; a refund of it starts as succeeded and some time later
  // turns failed (refund.updated, refund.failed, charge.refund.updated).
  '4000000000005126': { kind: 'succeed', refundFails: true },
  // Ask for 3-D Secure authentication.
  '4000002500003155': { kind: 'authenticate' },
  '4000002760003184': { kind: 'authenticate' },
  '4000000000003220': { kind: 'authenticate' },
  // Declines.
  '4000000000000002': declined('generic_decline'),
  '4000000000009995': declined('insufficient_funds', 'Your card has insufficient funds.'),
  '4000000000009987': declined('lost_card'),
  '4000000000009979': declined('stolen_card'),
  '4000000000000069': declined('expired_card', 'Your card has expired.', 'expired_card'),
  '4000000000000127': declined('incorrect_cvc', "Your card's security code is incorrect.", 'incorrect_cvc'),
  '4000000000000119': declined(
    'processing_error',
    'An error occurred while processing your card. Try again in a little bit.',
    'processing_error',
  ),
};

const LIVE_CARD = declined(
  'test_mode_live_card',
  'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
);

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function cardBehaviour(digits: string): CardBehaviour {
  return TEST_CARDS[digits] ?? LIVE_CARD;
}

export function cardBrand(digits: string): string {
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  if (/^35/.test(digits)) return 'jcb';
  if (/^3(0|6|8)/.test(digits)) return 'diners';
  return 'unknown';
}

export const cardFingerprint = (digits: string) => createHash('sha256').update(`sandbox:${digits}`).digest('base64url').slice(0, 16);

/** The fingerprints of the test cards whose refunds fail later (a charge keeps only the fingerprint). */
const REFUNDS_FAIL = new Set(
  Object.entries(TEST_CARDS)
    .filter(([, b]) => b.kind === 'succeed' && b.refundFails)
    .map(([digits]) => cardFingerprint(digits)),
);

export const refundsFail = (fingerprint: string | null | undefined) => !!fingerprint && REFUNDS_FAIL.has(fingerprint);
