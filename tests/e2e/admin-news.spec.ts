import { expect as baseExpect, test } from '../helpers/app-test';
import { apiUrl, berlinDay } from './booking-helpers.ts';
import { berlinLocal, clientAs, pngFile } from './admin-content-helpers.ts';
import { fillDate } from '../helpers/dates';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 90_000 });

test.describe('admin news', () => {
  test.use({ persona: 'admin' });

  test('an admin creates news with a title image through the confirmation dialog; it shows on /start; deleting it removes the image from storage', async ({
    page,
    consoleErrors,
  }) => {
    const title = `Hafenfest ${Date.now().toString(36)}`;
    await page.goto('/de/account/admin/news');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('News');
    const table = page.getByRole('table', { name: 'News' });
    await expect(table.getByRole('columnheader')).toHaveText(['Titel', 'Beginn', 'Ende', 'Aktionen']);

    await page.getByRole('link', { name: 'News erstellen' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('News erstellen');
    await page.getByLabel('Titel (Deutsch)').fill(title);
    await page.getByLabel('Titel (Englisch)').fill(`Harbour party ${title.slice(-6)}`);
    await page.getByLabel('Kurztext (Deutsch)').fill('Musik am Steg D.');
    await page.getByLabel('Kurztext (Englisch)').fill('Music on pier D.');
    await page.getByLabel('Langtext (Deutsch)').fill('Ab 18 Uhr spielt die Hafenkapelle.');
    await page.getByLabel('Langtext (Englisch)').fill('The harbour band plays from 6 pm.');

    // The upload shows its progress (held back a moment so the indicator can be seen).
    await page.route('**/storage/v1/object/news-images/**', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.getByLabel('Titelbild', { exact: true }).setInputFiles(pngFile());
    await expect(page.getByRole('status').filter({ hasText: 'Wird hochgeladen' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Aktuelles Titelbild' })).toBeVisible();

    // Bad input first: an end before the start is a clear message, nothing is sent.
    await page.getByLabel('Beginn', { exact: true }).fill(berlinLocal(-1));
    await page.getByLabel('Ende', { exact: true }).fill(berlinLocal(-2));
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Das Ende muss nach dem Beginn liegen')).toBeVisible();
    await page.getByLabel('Ende', { exact: true }).fill(berlinLocal(48));
    await page.getByRole('button', { name: 'Termin hinzufügen' }).click();
    await fillDate(page.getByLabel('Termin 1', { exact: true }), berlinDay(1));
    await page.getByRole('button', { name: 'Speichern' }).click();

    const dialog = page.getByRole('alertdialog', { name: 'News erstellen' });
    await expect(dialog).toContainText(`Möchten Sie die News „${title}“ wirklich erstellen?`);
    await dialog.getByRole('button', { name: 'Erstellen' }).click();
    await expect(page).toHaveURL(/\/de\/account\/admin\/news$/);
    const row = table.getByRole('row').filter({ hasText: title });
    await expect(row).toBeVisible();

    const admin = await clientAs('admin');
    const { data: first } = await admin.from('news').select('id, image_path, dates').eq('title', title).single();
    expect(first!.image_path).toMatch(new RegExp(`^${first!.id}/title-\\d+\\.png$`));
    expect(first!.dates).toEqual([berlinDay(1)]);
    const firstUrl = `${apiUrl}/storage/v1/object/public/news-images/${first!.image_path}`;
    expect((await fetch(firstUrl)).status).toBe(200);

    // Editing: no dialog, 'Speichern' saves; a replaced title image is removed from storage.
    await row.getByRole('link', { name: `${title} bearbeiten` }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('News bearbeiten');
    await expect(page.getByLabel('Titel (Deutsch)')).toHaveValue(title);
    await page.getByLabel('Titel (Englisch)').fill(`Harbour festival ${title.slice(-6)}`);
    await page.getByLabel('Titelbild', { exact: true }).setInputFiles(pngFile('neu.png'));
    await expect(page.getByRole('img', { name: 'Aktuelles Titelbild' })).not.toHaveAttribute('src', firstUrl);
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page).toHaveURL(/\/de\/account\/admin\/news$/);
    const { data: stored } = await admin.from('news').select('id, image_path, title_en').eq('id', first!.id).single();
    expect(stored!.title_en).toBe(`Harbour festival ${title.slice(-6)}`);
    expect(stored!.image_path).not.toBe(first!.image_path);
    expect((await fetch(firstUrl)).status).not.toBe(200);
    const imageUrl = `${apiUrl}/storage/v1/object/public/news-images/${stored!.image_path}`;
    expect((await fetch(imageUrl)).status).toBe(200);

    // Guests see it on the start page (in German and in English), and its card leads to the whole
    // item: the long text, the title image and its event day.
    await page.goto('/de/start');
    await page.getByRole('link', { name: title, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/de/news/${first!.id}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByText('Ab 18 Uhr spielt die Hafenkapelle.')).toBeVisible();
    await expect(page.locator('main img')).toHaveAttribute('src', imageUrl);
    await expect(page.getByText('Termine:')).toBeAttached();
    await page.getByRole('link', { name: 'Alle Neuigkeiten' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Neuigkeiten');
    await expect(page.getByRole('link', { name: `Weiterlesen: ${title}` })).toBeVisible();
    await page.goto('/en/start');
    await page.getByRole('link', { name: stored!.title_en, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(stored!.title_en);
    await expect(page.getByText('The harbour band plays from 6 pm.')).toBeVisible();

    // Delete through the dialog: the image goes first, then the row.
    await page.goto('/de/account/admin/news');
    await row.getByRole('button', { name: `${title} löschen` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'News löschen' });
    await expect(confirm).toContainText('Das Titelbild wird ebenfalls gelöscht.');
    await confirm.getByRole('button', { name: 'Löschen' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Die News „${title}“ wurde gelöscht.` })).toBeVisible();
    await expect(row).toHaveCount(0);
    expect((await fetch(imageUrl)).status).not.toBe(200);
    const { data: left } = await admin.storage.from('news-images').list(stored!.id);
    expect(left ?? []).toEqual([]);
    const { data: gone } = await admin.from('news').select('id').eq('id', stored!.id);
    expect(gone).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test('the news pages in English; an image uploaded but never saved is removed on leaving; a wrong id is a clear message', async ({
    page,
  }) => {
    await page.goto('/en/account/admin/news');
    await expect(page.getByRole('table', { name: 'News' }).getByRole('columnheader')).toHaveText(['Title', 'Start', 'End', 'Actions']);
    await page.getByRole('link', { name: 'Create news' }).click();
    await page.getByLabel('Title image', { exact: true }).setInputFiles(pngFile());
    const src = (await page.getByRole('img', { name: 'Current title image' }).getAttribute('src'))!;
    expect((await fetch(src)).status).toBe(200);
    await page.getByRole('link', { name: 'Back to the list' }).click();
    await expect(page).toHaveURL(/\/en\/account\/admin\/news$/);
    await expect.poll(async () => (await fetch(src)).status).not.toBe(200);
    await page.goto('/en/account/admin/news/00000000-0000-4000-8000-000000000000/edit');
    await expect(page.getByRole('alert')).toHaveText('This news item does not exist (any more).');
    await page.goto('/en/account/admin/news/not-a-uuid/edit');
    await expect(page.getByRole('alert')).toHaveText('This news item does not exist (any more).');
    // A guest's news page of an item that ended (seeded: the season opening), or of none, is the 404 page.
    const admin = await clientAs('admin');
    const { data: ended } = await admin.from('news').select('id').eq('title', 'Saisoneröffnung').single();
    for (const id of [ended!.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      await page.goto(`/en/news/${id}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Not Found');
    }
  });
});
