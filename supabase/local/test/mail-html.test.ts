/**
 * The HTML part of every e-mail (supabase/functions/send-mail/html.ts), rendered from the text
 * part that the database frames with private.mail_text. The browser test (tests/e2e/mail-html)
 * renders real e-mails in Chromium; these check the rules of the conversion.
 */
import { describe, expect, it } from 'vitest';
import { escapeHtml, renderMailHtml } from '../../functions/send-mail/html.ts';

const text = [
  'Guten Tag Ada <Lovelace>,',
  '',
  'vielen Dank für Ihre Buchung. Ihr Aufenthalt:',
  '',
  'Liegeplatz: A01 (Steg A)',
  'MwSt. 19 %: 8,36 €',
  'Ihre Buchung: https://hafen.example/order/42',
  '',
  'Einchecken können Sie ab dem Anreisetag auf Ihrer Buchungsseite: https://hafen.example/order/42/check-in',
  'https://hafen.example/order/42',
  'Fragen? Antworten Sie einfach: wir helfen.',
  '',
  'Mit freundlichen Grüßen',
  'Hafen Düsseldorf',
].join('\n');

describe('renderMailHtml', () => {
  const html = renderMailHtml({ subject: 'Ihre Buchung <1>', text, locale: 'de', siteUrl: 'https://hafen.example/', replies: true });

  it('escapes every text, the subject included', () => {
    expect(html).toContain('Guten Tag Ada &lt;Lovelace&gt;,');
    expect(html).toContain('<title>Ihre Buchung &lt;1&gt;</title>');
    expect(html).not.toContain('<Lovelace>');
    expect(escapeHtml(`<a href="x">'&`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;');
  });

  it('turns a run of "Label: value" lines into table rows, a sentence ending in a colon stays prose', () => {
    expect(html).toMatch(/<td class="label"[^>]*>Liegeplatz<\/td><td[^>]*>A01 \(Steg A\)<\/td>/);
    expect(html).toMatch(/<td class="label"[^>]*>MwSt\. 19 %<\/td><td[^>]*>8,36 €<\/td>/);
    expect(html).toMatch(/<p[^>]*>vielen Dank für Ihre Buchung\. Ihr Aufenthalt:<\/p>/);
    // a question is prose even when a colon follows
    expect(html).not.toMatch(/class="label"[^>]*>Fragen\?/);
  });

  it('makes a labelled link a button named by its label, a bare link a button, a link in prose a link', () => {
    expect(html).toMatch(/<a href="https:\/\/hafen\.example\/order\/42" class="button"[^>]*>Ihre Buchung<\/a>/);
    expect(html).toMatch(/<a href="https:\/\/hafen\.example\/order\/42" class="button"[^>]*>Öffnen<\/a>/);
    expect(html).toMatch(
      /Buchungsseite: <a href="https:\/\/hafen\.example\/order\/42\/check-in"[^>]*class="link">https:\/\/hafen\.example\/order\/42\/check-in<\/a>/,
    );
  });

  it('keeps the sign-off lines together, names the site and that replies reach the office', () => {
    expect(html).toContain('Mit freundlichen Grüßen<br>Hafen Düsseldorf');
    expect(html).toContain('<a href="https://hafen.example"');
    expect(html).toContain('Sie erreicht das Hafenbüro');
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('prefers-color-scheme: dark');
  });

  it('speaks English for an English e-mail and says when replies go nowhere', () => {
    const en = renderMailHtml({ subject: 's', text: 'Hello,\n\nhttps://x.example/a\n\nKind regards\nHafen Düsseldorf', locale: 'en' });
    expect(en).toContain('<html lang="en">');
    expect(en).toContain('>Open</a>');
    expect(en).toContain('This e-mail was sent automatically.');
    expect(en).toContain('Berths and guest moorings on the Rhine');
  });
});
