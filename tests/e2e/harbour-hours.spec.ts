import { readFileSync } from 'node:fs';
import { expect, test } from '../helpers/app-test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { personas } from '../helpers/personas.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { apiUrl, berlinDay, personaToken } from './booking-helpers.ts';
import { expectDate } from '../helpers/dates';

const HARBOUR_ID = 'a0000000-0000-4000-8000-000000000002';

async function rest<T>(path: string, token: string, init: RequestInit = {}): Promise<{ status: number; data: T }> {
  const res = await fetch(`${apiUrl}/rest/v1/${path}`, {
    ...init,
    headers: {
      apikey: DEMO_ANON_KEY,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      prefer: 'return=representation',
      ...init.headers,
    },
  });
  const text = await res.text();
  return { status: res.status, data: (text ? JSON.parse(text) : null) as T };
}

const hm = (minutes: number) => `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;

/** RFC 4180 with ';': quoted fields may hold ';', '""' and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ';') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

test.describe('working hours', () => {
  test.use({ persona: 'harbour' });

  test('staff record a shift, see day and month totals, are refused an overlap, and delete it after confirming', async ({
    page,
    consoleErrors,
  }) => {
    const token = await personaToken(personas.harbour.email, personas.harbour.password);
    const today = berlinDay(0);
    const month = today.slice(0, 7);
    const [y, m] = month.split('-').map(Number) as [number, number];
    const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
    // A rerun against the same stack starts clean.
    await rest(`working_hours?user_id=eq.${HARBOUR_ID}&work_date=eq.${today}&start_time=lt.07:00`, token, { method: 'DELETE' });

    await page.goto('/account/admin/hours');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Arbeitsstunden');
    const form = page.getByRole('form', { name: 'Arbeitszeit eintragen' });
    await expectDate(form.getByLabel('Datum'), today);

    // The form's own rules first.
    await form.getByLabel('Beginn').fill('06:00');
    await form.getByLabel('Ende', { exact: true }).fill('05:00');
    await form.getByRole('button', { name: 'Eintragen' }).click();
    await expect(form.getByText('Das Ende liegt nach dem Beginn.')).toBeVisible();
    await form.getByLabel('Ende', { exact: true }).fill('06:10');
    await form.getByLabel('Pause (Minuten)').fill('15');
    await form.getByRole('button', { name: 'Eintragen' }).click();
    await expect(form.getByText('Die Pause ist kürzer als die Arbeitszeit.')).toBeVisible();

    await form.getByLabel('Beginn').fill('05:00');
    await form.getByLabel('Ende', { exact: true }).fill('06:30');
    await form.getByLabel('Notiz').fill('Frühdienst Steg B');
    await form.getByRole('button', { name: 'Eintragen' }).click();
    await expect(form.getByText('Gespeichert.')).toBeVisible();

    const { data: mine } = await rest<{ minutes: number; work_date: string }[]>(
      `working_hours?select=minutes,work_date&work_date=gte.${month}-01&work_date=lt.${next}-01`,
      token,
    );
    const monthMinutes = mine.reduce((s, e) => s + e.minutes, 0);
    const dayMinutes = mine.filter((e) => e.work_date === today).reduce((s, e) => s + e.minutes, 0);
    expect(dayMinutes).toBe(75);
    const overview = page.getByRole('region', { name: 'Monatsübersicht' });
    await expect(overview.getByTestId('month-total')).toContainText(`Summe im Monat: ${hm(monthMinutes)} h`);
    const entry = overview.getByRole('listitem').filter({ hasText: '05:00–06:30' }).last();
    await expect(entry).toContainText('1:15 h');
    await expect(entry).toContainText('Frühdienst Steg B');
    await expect(overview.getByText(`Tagessumme: ${hm(dayMinutes)} h`)).toBeVisible();

    // The database refuses an overlapping shift of the same person, with a clear message.
    await form.getByLabel('Beginn').fill('06:00');
    await form.getByLabel('Ende', { exact: true }).fill('06:45');
    await form.getByLabel('Pause (Minuten)').fill('0');
    await form.getByRole('button', { name: 'Eintragen' }).click();
    await expect(form.getByText('Dieser Eintrag überschneidet sich mit einem anderen Eintrag derselben Person.')).toBeVisible();

    expect(await seriousViolations(page)).toEqual([]);

    // Delete: cancelling keeps it, confirming removes it.
    await overview.getByRole('button', { name: /^05:00–06:30 am .* löschen$/ }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Eintrag löschen?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(overview.getByText('05:00–06:30')).toBeVisible();
    await overview.getByRole('button', { name: /^05:00–06:30 am .* löschen$/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Löschen' }).click();
    await expect(page.getByText('Eintrag gelöscht.')).toBeVisible();
    await expect(overview.getByText('05:00–06:30')).toHaveCount(0);
    await expect(overview.getByTestId('month-total')).toContainText(`Summe im Monat: ${hm(monthMinutes - 75)} h`);
    const { data: left } = await rest<unknown[]>(`working_hours?work_date=eq.${today}&start_time=eq.05:00`, token);
    expect(left).toEqual([]);
    // The one refused request is the overlap (409), which the browser logs; nothing else.
    expect(consoleErrors.filter((e) => !/status of 409 \(Conflict\) @ .*\/rest\/v1\/working_hours/.test(e))).toEqual([]);
  });

  test('the month is in the URL; staff cannot see the person filter or the export', async ({ page }) => {
    await page.goto('/en/account/admin/hours?month=2026-01');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Working hours');
    await expect(page.getByRole('heading', { name: 'January 2026' })).toBeVisible();
    await page.getByRole('button', { name: 'Next month' }).click();
    await expect(page).toHaveURL(/month=2026-02/);
    await expect(page.getByRole('heading', { name: 'February 2026' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Export CSV' })).toHaveCount(0);
    await expect(page.getByRole('combobox', { name: 'Person' })).toHaveCount(0);
  });
});

test.describe('working hours for admins', () => {
  test.use({ persona: 'admin' });

  test("an admin filters by person and exports the month as CSV (BOM, ';', escaping, German decimal comma, totals)", async ({ page }) => {
    const admin = await personaToken(personas.admin.email, personas.admin.password);
    const today = berlinDay(0);
    const [y, m] = today.split('-').map(Number) as [number, number];
    const last = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
    const day = `${last}-01`;
    // An evening entry for Heinz with a note that needs escaping (no overlap with the seeded days).
    await rest(`working_hours?user_id=eq.${HARBOUR_ID}&work_date=eq.${day}&start_time=eq.20:00`, admin, { method: 'DELETE' });
    const note = 'Kran; "Möwe"\nzweite Zeile';
    const created = await rest(`working_hours`, admin, {
      method: 'POST',
      body: JSON.stringify({ user_id: HARBOUR_ID, work_date: day, start_time: '20:00', end_time: '21:45', break_minutes: 0, note }),
    });
    expect(created.status, JSON.stringify(created.data)).toBe(201);
    const formula = await rest(`working_hours`, admin, {
      method: 'POST',
      body: JSON.stringify({
        user_id: HARBOUR_ID,
        work_date: day,
        start_time: '22:00',
        end_time: '22:30',
        break_minutes: 0,
        note: '=HYPERLINK("x")',
      }),
    });
    expect([201, 409]).toContain(formula.status);

    const { data: rows } = await rest<{ minutes: number }[]>(
      `working_hours?select=minutes&user_id=eq.${HARBOUR_ID}&work_date=gte.${last}-01&work_date=lt.${today.slice(0, 7)}-01`,
      admin,
    );
    const minutes = rows.reduce((s, r) => s + r.minutes, 0);

    await page.goto(`/account/admin/hours?month=${last}`);
    await page.getByRole('combobox', { name: 'Person' }).selectOption({ label: 'Heinz Poller' });
    await expect(page).toHaveURL(new RegExp(`person=${HARBOUR_ID}`));
    await expect(page.getByTestId('month-total')).toContainText(`Summe im Monat: ${hm(minutes)} h`);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV exportieren' }).click()]);
    expect(download.suggestedFilename()).toBe(`arbeitsstunden-${last}-Heinz-Poller.csv`);
    const bytes = readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = parseCsv(bytes.subarray(3).toString('utf8'));
    expect(csv[0]).toEqual(['Person', 'Datum', 'Beginn', 'Ende', 'Pause (Minuten)', 'Minuten', 'Stunden', 'Notiz']);
    expect(csv).toHaveLength(1 + rows.length + 1);
    expect(csv).toContainEqual(['Heinz Poller', day, '20:00', '21:45', '0', '105', '1,75', note]);
    expect(csv).toContainEqual(['Heinz Poller', day, '22:00', '22:30', '0', '30', '0,50', `'=HYPERLINK("x")`]);
    expect(csv.at(-1)).toEqual([`Summe: Heinz Poller`, '', '', '', '', String(minutes), (minutes / 60).toFixed(2).replace('.', ','), '']);
    expect(bytes.toString('utf8')).toContain('"Kran; ""Möwe""\nzweite Zeile"');
  });
});
