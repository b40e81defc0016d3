/**
 * The HTML part of every e-mail, rendered from its plain-text part (public.outbox.body_text,
 * framed by private.mail_text), so both parts always say the same thing and every e-mail has
 * one look: the frame of the auth e-mails (supabase/templates), readable on a phone (fluid to
 * 560 px, long links wrap) and in dark mode (color-scheme plus a prefers-color-scheme block).
 *
 * How text becomes HTML: blank lines separate paragraphs; a run of "Label: value" lines is a
 * two-column table; a value or line that is only a link becomes a button; links inside prose
 * stay links. Everything else is escaped text. Pure: no Deno or Node API, so the stack's tests
 * import it too.
 */

export interface MailHtmlInput {
  subject: string;
  text: string;
  locale: string;
  /** The app's origin, named in the footer. */
  siteUrl?: string;
  /** Whether a reply reaches the harbour (the outbox row has a Reply-To). */
  replies?: boolean;
}

const URL_ONLY = /^https?:\/\/\S+$/;
const URL_IN_TEXT = /https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)]/g;
/** "Label: value": a short label (no question or exclamation: that is prose), then the value. */
const LABELLED = /^([^:!?\n]{1,32}): (.+)$/;

const COLORS = {
  page: '#eef3f7',
  card: '#ffffff',
  brand: '#0b3d5c',
  text: '#1b2b3a',
  muted: '#5b6b7a',
  rule: '#e3e9ee',
  label: '#4a5a69',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Escaped text with its links made clickable (wrapping anywhere, so a long link never widens the mail). */
function inline(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    out += escapeHtml(text.slice(last, match.index));
    const url = escapeHtml(match[0]);
    out += `<a href="${url}" style="color:${COLORS.brand};word-break:break-all;" class="link">${url}</a>`;
    last = match.index + match[0].length;
  }
  return out + escapeHtml(text.slice(last));
}

function button(url: string, label: string): string {
  const href = escapeHtml(url);
  return `<p style="margin:8px 0 20px 0;"><a href="${href}" class="button" style="display:inline-block;padding:12px 22px;background-color:${COLORS.brand};color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold;">${escapeHtml(label)}</a></p>`;
}

function table(rows: [string, string][]): string {
  const cells = rows
    .map(
      ([label, value]) =>
        `<tr><td class="label" style="padding:4px 12px 4px 0;color:${COLORS.label};vertical-align:top;white-space:nowrap;">${escapeHtml(label)}</td>` +
        `<td style="padding:4px 0;vertical-align:top;overflow-wrap:anywhere;word-break:break-word;">${inline(value)}</td></tr>`,
    )
    .join('');
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px 0;border-collapse:collapse;font-size:15px;line-height:1.45;">${cells}</table>`;
}

function paragraph(lines: string[]): string {
  return `<p style="margin:0 0 16px 0;overflow-wrap:anywhere;">${lines.map(inline).join('<br>')}</p>`;
}

/** One paragraph of the text: its labelled runs as tables, link lines as buttons, the rest as text. */
function block(lines: string[], openLabel: string): string {
  let html = '';
  let rows: [string, string][] = [];
  let prose: string[] = [];
  const buttons: string[] = [];
  const flush = () => {
    if (rows.length) html += table(rows);
    if (prose.length) html += paragraph(prose);
    rows = [];
    prose = [];
  };
  for (const line of lines) {
    const labelled = LABELLED.exec(line);
    if (URL_ONLY.test(line)) {
      flush();
      html += button(line, openLabel);
    } else if (labelled && URL_ONLY.test(labelled[2]!)) {
      // "Ihre Buchung: https://…": the label names the button; it follows the paragraph.
      buttons.push(button(labelled[2]!, labelled[1]!));
    } else if (labelled) {
      if (prose.length) flush();
      rows.push([labelled[1]!, labelled[2]!]);
    } else {
      if (rows.length) flush();
      prose.push(line);
    }
  }
  flush();
  return html + buttons.join('');
}

export function renderMailHtml(input: MailHtmlInput): string {
  const en = input.locale === 'en';
  const paragraphs = input.text
    .replace(/\r\n/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((p) => p.split('\n').filter((l) => l.trim() !== ''))
    .filter((p) => p.length > 0);
  const openLabel = en ? 'Open' : 'Öffnen';
  const body = paragraphs.map((lines) => block(lines, openLabel)).join('\n');
  const site = input.siteUrl ? escapeHtml(input.siteUrl.replace(/\/$/, '')) : '';
  const tagline = en ? 'Berths and guest moorings on the Rhine' : 'Liegeplätze und Gastliegeplätze am Rhein';
  const note = input.replies
    ? en
      ? 'Questions? Simply reply to this e-mail: it reaches the harbour office.'
      : 'Fragen? Antworten Sie einfach auf diese E-Mail: Sie erreicht das Hafenbüro.'
    : en
      ? 'This e-mail was sent automatically.'
      : 'Diese E-Mail wurde automatisch versendet.';
  return `<!DOCTYPE html>
<html lang="${en ? 'en' : 'de'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${escapeHtml(input.subject)}</title>
<style>
@media (prefers-color-scheme: dark) {
  body, .page { background-color:#0f1a23 !important; }
  .card { background-color:#17242f !important; color:#e6edf3 !important; }
  .card td, .card p { color:#e6edf3 !important; }
  .card td.label { color:#a9b8c6 !important; }
  .link { color:#8cc8ff !important; }
  .button { background-color:#2f7fb5 !important; color:#ffffff !important; }
  .footer, .footer td { color:#a9b8c6 !important; border-color:#2a3a47 !important; }
  .footer a { color:#8cc8ff !important; }
}
</style>
</head>
<body style="margin:0;padding:0;background-color:${COLORS.page};font-family:Arial,Helvetica,sans-serif;color:${COLORS.text};">
<table role="presentation" class="page" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:${COLORS.page};padding:24px 0;">
<tr><td align="center" style="padding:0 12px;">
<table role="presentation" class="card" width="560" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;width:100%;background-color:${COLORS.card};border-radius:8px;">
<tr><td style="background-color:${COLORS.brand};color:#ffffff;padding:20px 28px;font-size:20px;font-weight:bold;border-radius:8px 8px 0 0;">&#9875; Hafen Düsseldorf</td></tr>
<tr><td style="padding:28px 28px 12px 28px;font-size:16px;line-height:1.5;">
${body}
</td></tr>
<tr><td class="footer" style="padding:16px 28px;font-size:12px;line-height:1.5;color:${COLORS.muted};border-top:1px solid ${COLORS.rule};">Hafen Düsseldorf &middot; ${tagline}${site ? ` &middot; <a href="${site}" style="color:${COLORS.brand};">${site}</a>` : ''}<br>${note}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;
}
