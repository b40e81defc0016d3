import { readFile } from 'node:fs/promises';
import { expect, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe';
import { fillDate } from '../helpers/dates';

const today = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });

/** Reads the downloaded file's bytes and its text as Windows-1252. */
async function downloaded(download: import('@playwright/test').Download) {
  const bytes = await readFile((await download.path())!);
  return { bytes, text: new TextDecoder('windows-1252').decode(bytes) };
}

test.describe('DATEV export', () => {
  test.use({ persona: 'admin' });

  test("de: the admin downloads this year's Buchungsstapel; bad ranges get a clear message", async ({ page, consoleErrors }) => {
    const to = today();
    const from = `${to.slice(0, 4)}-01-01`;
    await page.goto('/account/admin/datev');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('DATEV-Export');
    expect(await seriousViolations(page)).toEqual([]);

    const form = page.getByRole('form', { name: 'Zeitraum' });
    await fillDate(form.getByLabel('Von'), to);
    await fillDate(form.getByLabel('Bis einschließlich'), from);
    await form.getByRole('button', { name: 'DATEV-Datei herunterladen' }).click();
    await expect(form.getByText('Das Enddatum darf nicht vor dem Anfangsdatum liegen')).toBeVisible();
    await fillDate(form.getByLabel('Von'), `${Number(to.slice(0, 4)) - 1}-12-01`);
    await fillDate(form.getByLabel('Bis einschließlich'), from);
    await form.getByRole('button', { name: 'DATEV-Datei herunterladen' }).click();
    await expect(form.getByText('Ein DATEV-Buchungsstapel umfasst höchstens ein Wirtschaftsjahr.', { exact: false })).toBeVisible();

    await fillDate(form.getByLabel('Von'), from);
    await fillDate(form.getByLabel('Bis einschließlich'), to);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      form.getByRole('button', { name: 'DATEV-Datei herunterladen' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`EXTF_Buchungsstapel_${from.replaceAll('-', '')}_${to.replaceAll('-', '')}.csv`);
    const { bytes, text } = await downloaded(download);
    const lines = text.split('\r\n');
    expect(lines[0]).toMatch(
      new RegExp(
        `^"EXTF";700;21;"Buchungsstapel";13;\\d{17};;"RE";"";"";1001;1;${from.slice(0, 4)}0101;4;${from.replaceAll('-', '')};${to.replaceAll('-', '')};"Hafen ${from.slice(0, 7)}";`,
      ),
    );
    expect(lines[0].split(';')).toHaveLength(31);
    expect(lines[1].split(';')).toHaveLength(125);
    expect(lines[1]).toContain(';Konto;Gegenkonto (ohne BU-Schlüssel);BU-Schlüssel;Belegdatum;Belegfeld 1;');
    // Windows-1252: "ü" of Schlüssel is the one byte 0xFC, no UTF-8 pair, no byte order mark.
    expect(bytes[0]).toBe(0x22);
    expect(bytes.includes(0xfc)).toBe(true);
    expect(bytes.includes(0xc3)).toBe(false);
    // The first posting: a document of this year on the debtor against the 19 % revenue account, or a ledger row.
    expect(lines[2].split(';')).toHaveLength(125);
    expect(lines[2]).toMatch(/^\d+,\d{2};"[SH]";"EUR";;;"";\d{4,5};\d{4,5};"";\d{4};"(RE-\d{4}-\d{5}|HD-\d{2}-[A-Z0-9]{4})";"";;"[^"]+";/);
    const count = lines.length - 3;
    await expect(page.getByRole('status')).toHaveText(
      `${download.suggestedFilename()} wurde erstellt: ${count.toLocaleString('de-DE')} Buchungszeilen.`,
    );
    expect(consoleErrors).toEqual([]);
  });

  test('en: the page in English, the same file, messages in English', async ({ page }) => {
    const to = today();
    const from = `${to.slice(0, 4)}-${to.slice(5, 7)}-01`;
    await page.goto('/en/account/admin/datev');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('DATEV export');
    await expect(page.getByRole('region', { name: 'DATEV settings' })).toContainText('8400 / 8300 / 1590');
    const form = page.getByRole('form', { name: /period/i });
    await fillDate(form.getByLabel('From'), `${Number(to.slice(0, 4)) - 1}-12-31`);
    await fillDate(form.getByLabel(/Until/), to);
    await form.getByRole('button', { name: 'Download DATEV file' }).click();
    await expect(form.getByText('A DATEV posting batch covers at most one fiscal year.', { exact: false })).toBeVisible();
    await fillDate(form.getByLabel('From'), from);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      form.getByRole('button', { name: 'Download DATEV file' }).click(),
    ]);
    const { text } = await downloaded(download);
    expect(text.startsWith('"EXTF";700;21;"Buchungsstapel";13;')).toBe(true);
    expect(text.split('\r\n')[1].split(';')[0]).toBe('Umsatz (ohne Soll/Haben-Kz)');
    await expect(page.getByRole('status')).toContainText(/was created: \d{1,3}(,\d{3})* posting lines\./);
  });

  test('the page at 390 and 1280 px; the settings form checks and stores the numbers', async ({ page }) => {
    for (const [width, height] of [
      [390, 844],
      [1280, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto('/account/admin/datev');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('DATEV-Export');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `no horizontal scrolling at ${width} px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `reports/screenshots/datev-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/account/admin/settings');
    const section = page.getByRole('region', { name: 'DATEV-Export' });
    await section.getByLabel('Beraternummer').fill('99');
    await section.getByRole('button', { name: 'DATEV-Einstellungen speichern' }).click();
    await expect(section.getByText('Bitte eine Zahl von 1001 bis 9999999 eingeben')).toBeVisible();
    await section.screenshot({ path: 'reports/screenshots/datev-settings-1280.png' });
    // The valid numbers are stored (the same defaults, so the other tests' files stay as they expect).
    await section.getByLabel('Beraternummer').fill('1001');
    await section.getByRole('button', { name: 'DATEV-Einstellungen speichern' }).click();
    await expect(section.getByRole('status')).toHaveText('Gespeichert.');
  });
});
