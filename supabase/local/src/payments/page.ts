import type Stripe from 'stripe';
import type { LineItemData } from './objects.ts';

/**
 * The hosted checkout page and the 3-D Secure page: plain server-rendered HTML in German or
 * English (the session's `locale`; `auto` follows the browser), readable from 390 px up, every
 * input labelled, errors tied to their field.
 */

export type PageLocale = 'de' | 'en';

const TEXT = {
  de: {
    title: 'Bezahlen',
    testMode: 'Testmodus – es wird kein echtes Geld bewegt.',
    back: 'Zurück',
    total: 'Gesamt',
    quantity: 'Menge',
    email: 'E-Mail',
    card: 'Kartennummer',
    expiry: 'Ablaufdatum (MM / JJ)',
    cvc: 'Prüfnummer (CVC)',
    name: 'Name auf der Karte',
    pay: 'Bezahlen',
    paid: 'Diese Zahlung ist abgeschlossen. Vielen Dank!',
    paidTitle: 'Bezahlt',
    expired: 'Diese Bezahlsitzung ist abgelaufen. Bitte starten Sie die Zahlung erneut.',
    expiredTitle: 'Abgelaufen',
    notFound: 'Diese Bezahlseite gibt es nicht.',
    declined: 'Ihre Karte wurde abgelehnt.',
    insufficient: 'Ihre Karte ist nicht ausreichend gedeckt.',
    cardExpired: 'Ihre Karte ist abgelaufen.',
    cvcWrong: 'Der Sicherheitscode Ihrer Karte ist falsch.',
    processing: 'Bei der Verarbeitung Ihrer Karte ist ein Fehler aufgetreten. Versuchen Sie es gleich noch einmal.',
    liveCard: 'Ihre Karte wurde abgelehnt. Im Testmodus gehen nur Testkarten.',
    authFailed:
      'Wir konnten Ihre Zahlungsmethode nicht authentifizieren. Bitte wählen Sie eine andere Zahlungsmethode und versuchen Sie es erneut.',
    numberIncomplete: 'Ihre Kartennummer ist unvollständig.',
    numberInvalid: 'Ihre Kartennummer ist ungültig.',
    expiryIncomplete: 'Das Ablaufdatum Ihrer Karte ist unvollständig.',
    expiryMonthInvalid: 'Der Ablaufmonat Ihrer Karte ist ungültig.',
    expiryPast: 'Das Ablaufdatum Ihrer Karte liegt in der Vergangenheit.',
    cvcIncomplete: 'Der Sicherheitscode Ihrer Karte ist unvollständig.',
    nameMissing: 'Bitte geben Sie den Namen auf der Karte ein.',
    emailInvalid: 'Ihre E-Mail-Adresse ist ungültig.',
    authTitle: '3-D Secure: Zahlung bestätigen',
    authText: 'Ihre Bank möchte diese Zahlung bestätigen lassen (Test-Authentifizierung).',
    authComplete: 'Authentifizierung abschließen',
    authFail: 'Authentifizierung fehlschlagen lassen',
    setupTitle: 'SEPA-Lastschriftmandat erteilen',
    setupIntro: 'Künftige Beträge werden per SEPA-Lastschrift von diesem Konto eingezogen. Jetzt wird nichts abgebucht.',
    holder: 'Name der Kontoinhaberin / des Kontoinhabers',
    iban: 'IBAN',
    mandateTitle: 'SEPA-Lastschriftmandat',
    mandateAccept: 'Ich erteile das SEPA-Lastschriftmandat.',
    setupSubmit: 'Mandat erteilen',
    setupDone: 'Das Lastschriftmandat ist erteilt. Vielen Dank!',
    setupDoneTitle: 'Eingerichtet',
    holderMissing: 'Bitte geben Sie den Namen der Kontoinhaberin oder des Kontoinhabers ein.',
    ibanIncomplete: 'Ihre IBAN ist unvollständig.',
    ibanInvalid: 'Ihre IBAN ist ungültig.',
    ibanCountry: 'Ihr IBAN-Land wird nicht unterstützt.',
    mandateRequired: 'Bitte erteilen Sie das Lastschriftmandat.',
    mandateRef: 'Mandatsreferenz',
  },
  en: {
    title: 'Pay',
    testMode: 'Test mode – no real money moves.',
    back: 'Back',
    total: 'Total',
    quantity: 'Qty',
    email: 'Email',
    card: 'Card number',
    expiry: 'Expiry date (MM / YY)',
    cvc: 'Security code (CVC)',
    name: 'Name on card',
    pay: 'Pay',
    paid: 'This payment is complete. Thank you!',
    paidTitle: 'Paid',
    expired: 'This checkout session has expired. Please start the payment again.',
    expiredTitle: 'Expired',
    notFound: 'This payment page does not exist.',
    declined: 'Your card was declined.',
    insufficient: 'Your card has insufficient funds.',
    cardExpired: 'Your card has expired.',
    cvcWrong: "Your card's security code is incorrect.",
    processing: 'An error occurred while processing your card. Try again in a little bit.',
    liveCard: 'Your card was declined. Only test cards work in test mode.',
    authFailed: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
    numberIncomplete: 'Your card number is incomplete.',
    numberInvalid: 'Your card number is invalid.',
    expiryIncomplete: "Your card's expiration date is incomplete.",
    expiryMonthInvalid: "Your card's expiration month is invalid.",
    expiryPast: "Your card's expiration date is in the past.",
    cvcIncomplete: "Your card's security code is incomplete.",
    nameMissing: 'Please enter the name on the card.',
    emailInvalid: 'Your email address is invalid.',
    authTitle: '3-D Secure: confirm the payment',
    authText: 'Your bank asks you to confirm this payment (test authentication).',
    authComplete: 'Complete authentication',
    authFail: 'Fail authentication',
    setupTitle: 'Set up a SEPA Direct Debit mandate',
    setupIntro: 'Future amounts will be collected from this account by SEPA Direct Debit. Nothing is debited now.',
    holder: 'Account holder name',
    iban: 'IBAN',
    mandateTitle: 'SEPA Direct Debit mandate',
    mandateAccept: 'I accept the SEPA Direct Debit mandate.',
    setupSubmit: 'Accept mandate',
    setupDone: 'The direct debit mandate is set up. Thank you!',
    setupDoneTitle: 'Set up',
    holderMissing: 'Please enter the account holder’s name.',
    ibanIncomplete: 'Your IBAN is incomplete.',
    ibanInvalid: 'Your IBAN is invalid.',
    ibanCountry: 'Your IBAN’s country is not supported.',
    mandateRequired: 'Please accept the direct debit mandate.',
    mandateRef: 'Mandate reference',
  },
} as const;

export type MessageKey = keyof (typeof TEXT)['en'];

/** The page's message for a decline (by Stripe's decline code) or an authentication failure. */
export function declineMessage(code: string, declineCode: string): MessageKey {
  if (code === 'payment_intent_authentication_failure') return 'authFailed';
  if (declineCode === 'insufficient_funds') return 'insufficient';
  if (code === 'expired_card') return 'cardExpired';
  if (code === 'incorrect_cvc') return 'cvcWrong';
  if (code === 'processing_error') return 'processing';
  if (declineCode === 'test_mode_live_card') return 'liveCard';
  return 'declined';
}

/** de for German sessions, en for English; `auto` (or a language without a page) follows Accept-Language. */
export function pageLocale(locale: string | null, acceptLanguage: string | undefined): PageLocale {
  if (locale?.startsWith('de')) return 'de';
  if (locale?.startsWith('en')) return 'en';
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('de') ? 'de' : 'en';
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const money = (locale: PageLocale, cents: number, currency: string) =>
  new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-GB', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);

const STYLE = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a2733;background:#f4f6f8}
.wrap{display:grid;gap:24px;max-width:960px;margin:0 auto;padding:16px}
@media(min-width:800px){.wrap{grid-template-columns:1fr 1fr;padding:48px 24px}}
.card{background:#fff;border-radius:8px;padding:20px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.3rem;margin:0 0 8px}h2{font-size:1.05rem;margin:0 0 12px}
.merchant{font-weight:600;color:#0b4f71}.amount{font-size:2rem;font-weight:700;margin:8px 0}
.test{display:inline-block;background:#fff3cd;color:#664d03;border-radius:4px;padding:2px 8px;font-size:.85rem}
a{color:#0b4f71}ul{padding:0;list-style:none;margin:0}li{display:flex;justify-content:space-between;gap:12px;padding:6px 0;border-bottom:1px solid #e5e9ee}
label{display:block;font-weight:600;margin:14px 0 4px}input{width:100%;font:inherit;padding:10px 12px;border:1px solid #8a99a8;border-radius:6px}
input[aria-invalid=true]{border-color:#b3261e}.field-error{color:#b3261e;margin:4px 0 0;font-size:.9rem}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px;align-items:end}
button{width:100%;margin-top:20px;font:inherit;font-weight:600;padding:12px;border:0;border-radius:6px;background:#0b4f71;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#b3261e;border:1px solid #b3261e}
.alert{background:#fdecea;color:#7a1a14;border-radius:6px;padding:10px 12px;margin:0 0 12px}
.done{background:#e7f5ec;color:#14532d;border-radius:6px;padding:10px 12px}`;

function layout(locale: PageLocale, title: string, body: string) {
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

export interface CheckoutView {
  session: Stripe.Checkout.Session;
  lineItems: LineItemData[];
  merchant: string;
  locale: PageLocale;
  /** A message for the whole form (a decline, a failed authentication). */
  alert?: MessageKey;
  /** Messages per field (`number`, `exp`, `cvc`, `name`, `email`) and what was typed (never the card number). */
  errors?: Partial<Record<'number' | 'exp' | 'cvc' | 'name' | 'email', MessageKey>>;
  values?: { name?: string; email?: string; exp?: string };
}

function summary(view: CheckoutView) {
  const t = TEXT[view.locale];
  const { session } = view;
  const items = view.lineItems
    .map(
      (item) =>
        `<li><span>${escape(item.name)}${item.quantity > 1 ? ` · ${t.quantity} ${item.quantity}` : ''}${item.description ? `<br><small>${escape(item.description)}</small>` : ''}</span><span>${money(view.locale, item.unitAmount * item.quantity, item.currency)}</span></li>`,
    )
    .join('');
  const back = session.cancel_url && session.status === 'open' ? `<p><a href="${escape(session.cancel_url)}">← ${t.back}</a></p>` : '';
  return `<section class="card" aria-labelledby="merchant">${back}<p id="merchant" class="merchant">${escape(view.merchant)}</p>
<p class="amount">${money(view.locale, session.amount_total ?? 0, session.currency ?? 'eur')}</p><ul>${items}</ul>
<p><span class="test">${t.testMode}</span></p></section>`;
}

export function checkoutPage(view: CheckoutView): string {
  const t = TEXT[view.locale];
  const { session } = view;
  if (session.status === 'complete') {
    return layout(
      view.locale,
      t.paidTitle,
      `<main class="wrap">${summary(view)}<section class="card"><h1>${t.paidTitle}</h1><p class="done" role="status">${t.paid}</p></section></main>`,
    );
  }
  if (session.status === 'expired') {
    return layout(
      view.locale,
      t.expiredTitle,
      `<main class="wrap">${summary(view)}<section class="card"><h1>${t.expiredTitle}</h1><p class="alert" role="alert">${t.expired}</p></section></main>`,
    );
  }
  const errors = view.errors ?? {};
  const values = view.values ?? {};
  const field = (name: keyof NonNullable<CheckoutView['errors']>, label: string, attrs: string, value = '') => {
    const error = errors[name];
    return `<label for="${name}">${label}</label><input id="${name}" name="${name}" ${attrs} value="${escape(value)}"${
      error ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''
    }>${error ? `<p id="${name}-error" class="field-error">${t[error]}</p>` : ''}`;
  };
  const email = session.customer_email
    ? `<p>${t.email}: <strong>${escape(session.customer_email)}</strong></p>`
    : field('email', t.email, 'type="email" autocomplete="email" required', values.email);
  const form = `<section class="card" aria-labelledby="pay-title"><h1 id="pay-title">${t.title}</h1>
${view.alert ? `<p class="alert" role="alert">${t[view.alert]}</p>` : ''}
<form method="post" action="/pay/${escape(session.id)}" novalidate>${email}
${field('number', t.card, 'inputmode="numeric" autocomplete="cc-number" required')}
<div class="row"><div>${field('exp', t.expiry, 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" required', values.exp)}</div>
<div>${field('cvc', t.cvc, 'inputmode="numeric" autocomplete="cc-csc" required')}</div></div>
${field('name', t.name, 'autocomplete="cc-name" required', values.name)}
<button type="submit">${t.pay} ${money(view.locale, session.amount_total ?? 0, session.currency ?? 'eur')}</button></form></section>`;
  return layout(view.locale, `${t.title} – ${view.merchant}`, `<main class="wrap">${summary(view)}${form}</main>`);
}

export function authenticationPage(view: CheckoutView): string {
  const t = TEXT[view.locale];
  const action = `/pay/${escape(view.session.id)}/authenticate`;
  return layout(
    view.locale,
    t.authTitle,
    `<main class="wrap">${summary(view)}<section class="card" aria-labelledby="auth-title"><h1 id="auth-title">${t.authTitle}</h1><p>${t.authText}</p>
<form method="post" action="${action}"><input type="hidden" name="outcome" value="complete"><button type="submit">${t.authComplete}</button></form>
<form method="post" action="${action}"><input type="hidden" name="outcome" value="fail"><button type="submit" class="secondary">${t.authFail}</button></form></section></main>`,
  );
}

export function notFoundPage(locale: PageLocale): string {
  const t = TEXT[locale];
  return layout(locale, t.notFound, `<main class="wrap"><section class="card"><p>${t.notFound}</p></section></main>`);
}

/**
 * Stripe's SEPA mandate text (docs.stripe.com/payments/sepa-debit/set-up-payment, "mandate
 * acknowledgement"), with the merchant's name.
 */
export function mandateText(locale: PageLocale, merchant: string): string {
  return locale === 'de'
    ? `Durch Angabe Ihrer Zahlungsinformationen und der Bestätigung der vorliegenden Zahlung ermächtigen Sie (A) ${merchant} und Stripe, unseren Zahlungsdienstleister, Ihrem Kreditinstitut Anweisungen zur Belastung Ihres Kontos zu erteilen, und (B) Ihr Kreditinstitut, Ihr Konto gemäß diesen Anweisungen zu belasten. Im Rahmen Ihrer Rechte haben Sie, entsprechend den Vertragsbedingungen mit Ihrem Kreditinstitut, Anspruch auf eine Rückerstattung von Ihrem Kreditinstitut. Eine Rückerstattung muss innerhalb von 8 Wochen ab dem Tag, an dem Ihr Konto belastet wurde, geltend gemacht werden. Eine Erläuterung Ihrer Rechte können Sie von Ihrem Kreditinstitut anfordern. Sie erklären sich einverstanden, Benachrichtigungen über künftige Belastungen bis spätestens 2 Tage vor dem Buchungsdatum zu erhalten.`
    : `By providing your payment information and confirming this payment, you authorise (A) ${merchant} and Stripe, our payment service provider, to send instructions to your bank to debit your account and (B) your bank to debit your account in accordance with those instructions. As part of your rights, you are entitled to a refund from your bank under the terms and conditions of your agreement with your bank. A refund must be claimed within 8 weeks starting from the date on which your account was debited. Your rights are explained in a statement that you can obtain from your bank. You agree to receive notifications for future debits up to 2 days before they occur.`;
}

export type SetupField = 'name' | 'email' | 'iban' | 'mandate';

export interface SetupView {
  session: Stripe.Checkout.Session;
  merchant: string;
  locale: PageLocale;
  errors?: Partial<Record<SetupField, MessageKey>>;
  values?: { name?: string; email?: string; iban?: string };
}

/** The hosted page in setup mode with sepa_debit: holder, e-mail, IBAN and the mandate to accept. */
export function setupPage(view: SetupView): string {
  const t = TEXT[view.locale];
  const { session } = view;
  const head = `<section class="card" aria-labelledby="merchant">${
    session.cancel_url && session.status === 'open' ? `<p><a href="${escape(session.cancel_url)}">← ${t.back}</a></p>` : ''
  }<p id="merchant" class="merchant">${escape(view.merchant)}</p><p>${t.setupIntro}</p><p><span class="test">${t.testMode}</span></p></section>`;
  if (session.status === 'complete') {
    return layout(
      view.locale,
      t.setupDoneTitle,
      `<main class="wrap">${head}<section class="card"><h1>${t.setupDoneTitle}</h1><p class="done" role="status">${t.setupDone}</p></section></main>`,
    );
  }
  if (session.status === 'expired') {
    return layout(
      view.locale,
      t.expiredTitle,
      `<main class="wrap">${head}<section class="card"><h1>${t.expiredTitle}</h1><p class="alert" role="alert">${t.expired}</p></section></main>`,
    );
  }
  const errors = view.errors ?? {};
  const values = view.values ?? {};
  const described = (name: SetupField) => (errors[name] ? ` aria-invalid="true" aria-describedby="${name}-error"` : '');
  const message = (name: SetupField) => (errors[name] ? `<p id="${name}-error" class="field-error">${t[errors[name]]}</p>` : '');
  const field = (name: 'name' | 'email' | 'iban', label: string, attrs: string, value = '') =>
    `<label for="${name}">${label}</label><input id="${name}" name="${name}" ${attrs} value="${escape(value)}"${described(name)}>${message(name)}`;
  const email = session.customer_email
    ? `<p>${t.email}: <strong>${escape(session.customer_email)}</strong></p>`
    : field('email', t.email, 'type="email" autocomplete="email" required', values.email);
  const form = `<section class="card" aria-labelledby="pay-title"><h1 id="pay-title">${t.setupTitle}</h1>
<form method="post" action="/pay/${escape(session.id)}" novalidate>
${field('name', t.holder, 'autocomplete="name" required', values.name)}${email}
${field('iban', t.iban, 'autocomplete="off" spellcheck="false" placeholder="DE00 0000 0000 0000 0000 00" required', values.iban)}
<h2 id="mandate-title" style="margin-top:16px">${t.mandateTitle}</h2><p id="mandate-text" style="font-size:.9rem">${escape(mandateText(view.locale, view.merchant))}</p>
<p><input type="checkbox" id="mandate" name="mandate" value="accepted" style="width:auto" aria-describedby="mandate-text"${
    errors.mandate ? ` aria-invalid="true"` : ''
  }> <label for="mandate" style="display:inline">${t.mandateAccept}</label></p>${message('mandate')}
<button type="submit">${t.setupSubmit}</button></form></section>`;
  return layout(view.locale, `${t.setupTitle} – ${view.merchant}`, `<main class="wrap">${head}${form}</main>`);
}

/** The mandate as the customer accepted it (what `payment_method_details.sepa_debit.url` shows). */
export function mandatePage(
  locale: PageLocale,
  merchant: string,
  mandate: { reference: string; acceptedAt: number; status: string; last4: string; name: string | null },
): string {
  const t = TEXT[locale];
  const when = new Intl.DateTimeFormat(locale === 'de' ? 'de-DE' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Europe/Berlin',
  }).format(new Date(mandate.acceptedAt * 1000));
  return layout(
    locale,
    t.mandateTitle,
    `<main class="wrap"><section class="card"><h1>${t.mandateTitle}</h1><p class="merchant">${escape(merchant)}</p>
<p>${t.mandateRef}: <strong>${escape(mandate.reference)}</strong></p><p>${escape(mandate.name ?? '')} · IBAN •••• ${escape(mandate.last4)} · ${escape(when)} · ${escape(mandate.status)}</p>
<p>${escape(mandateText(locale, merchant))}</p></section></main>`,
  );
}
