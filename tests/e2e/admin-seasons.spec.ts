import { expect, test } from '../helpers/app-test';
import { fillDate } from '../helpers/dates';

/**
 * Seasons and long-term prices (issue 42, deliverable 1; docs/adr/0046-seasons-and-long-term-prices.md):
 * an admin adds a season and a price change (confirmed, append-only) and sees the new season
 * priced by it while the seeded summer 2027 keeps its price; a season that overlaps another of
 * its kind is refused with a sentence in the page's language. An admin edits a season's names and
 * dates in German, sees its English name on the English page, and deletes it (confirmed).
 */
test.describe('seasons and long-term prices', () => {
  test.use({ persona: 'admin' });

  test('an admin adds a season and a price change for the next seasons; an overlapping season is refused (de)', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/account/admin/seasons');
    await expect(page.getByRole('heading', { level: 1, name: 'Saisons und Langzeitpreise' })).toBeVisible();
    const seasons = page.getByRole('list', { name: 'Saisons' });
    const summer2027 = seasons.getByRole('listitem').filter({ hasText: 'Sommer 2027' });
    await expect(summer2027).toContainText('95,00 € pro laufendem Meter je Saison, inkl. 19 % USt.');

    const seasonForm = page.getByRole('form', { name: 'Saison anlegen' });
    await seasonForm.getByLabel('Name (deutsch)').fill('Sommer 2030');
    await seasonForm.getByLabel('Name (englisch)').fill('Summer 2030');
    await seasonForm.getByLabel('Art').selectOption('summer');
    await fillDate(seasonForm.getByLabel('Erster Tag'), '2030-04-01');
    await fillDate(seasonForm.getByLabel('Letzter Tag'), '2030-10-31');
    await seasonForm.getByRole('button', { name: 'Saison speichern' }).click();
    await expect(seasonForm.getByRole('status')).toHaveText('Saison gespeichert.');
    const summer2030 = seasons.getByRole('listitem').filter({ hasText: 'Sommer 2030' });
    await expect(summer2030).toContainText('95,00 €');

    const priceForm = page.getByRole('form', { name: 'Preisänderung' });
    await priceForm.getByLabel('Saisonart').selectOption('summer');
    await priceForm.getByLabel('Berechnung').selectOption('running_metre');
    await priceForm.getByLabel('Preis je Einheit und Saison, brutto (€)').fill('110,50');
    await priceForm.getByLabel('Strompauschale je Saison, brutto (€)').fill('130');
    await fillDate(priceForm.getByLabel('Gültig ab'), '2029-01-01');
    await priceForm.getByRole('button', { name: 'Preisänderung speichern' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Preisänderung speichern?' });
    await expect(confirm).toContainText('Sommer: 110,50 € pro laufendem Meter');
    await confirm.getByRole('button', { name: 'Speichern' }).click();
    await expect(confirm).toBeHidden();
    await expect(priceForm.getByRole('status')).toHaveText('Preisänderung gespeichert.');

    // The change reaches the seasons that start after it, not summer 2027.
    await expect(summer2030).toContainText('110,50 € pro laufendem Meter je Saison, inkl. 19 % USt.');
    await expect(summer2030).toContainText('Strompauschale 130,00 €');
    await expect(summer2027).toContainText('95,00 €');
    const summerPrices = page.getByRole('list', { name: 'Langzeitpreise' }).getByRole('listitem').filter({ hasText: 'Sommer' });
    await expect(summerPrices.getByTestId('upcoming-price')).toContainText('110,50 €');

    // A second summer season sharing October with summer 2030.
    await seasonForm.getByLabel('Name (deutsch)').fill('Sommer 2030 lang');
    await seasonForm.getByLabel('Name (englisch)').fill('Long summer 2030');
    await fillDate(seasonForm.getByLabel('Erster Tag'), '2030-10-01');
    await fillDate(seasonForm.getByLabel('Letzter Tag'), '2030-12-31');
    await seasonForm.getByRole('button', { name: 'Saison speichern' }).click();
    await expect(seasonForm.getByRole('alert')).toHaveText(
      'Diese Saison überschneidet sich mit einer anderen Saison derselben Art. Bitte die Daten prüfen.',
    );
    await expect(seasons.getByRole('listitem').filter({ hasText: 'Sommer 2030 lang' })).toHaveCount(0);
    // The 409 of add_season is expected; the page logs nothing else.
    expect(consoleErrors.filter((e) => !e.includes('409') && !e.includes('rpc/add_season'))).toEqual([]);
  });

  test('an overlapping season is refused with an English sentence; a negative price is refused in the form (en)', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/en/account/admin/seasons');
    await expect(page.getByRole('heading', { level: 1, name: 'Seasons and long-term prices' })).toBeVisible();
    const seasonForm = page.getByRole('form', { name: 'Add a season' });
    await seasonForm.getByLabel('Name (German)').fill('Spätsommer 2027');
    await seasonForm.getByLabel('Name (English)').fill('Late summer 2027');
    await seasonForm.getByLabel('Type').selectOption('summer');
    await fillDate(seasonForm.getByLabel('First day'), '2027-10-01');
    await fillDate(seasonForm.getByLabel('Last day'), '2027-11-30');
    await seasonForm.getByRole('button', { name: 'Save season' }).click();
    await expect(seasonForm.getByRole('alert')).toHaveText('This season overlaps another season of the same kind. Please check the dates.');

    await fillDate(seasonForm.getByLabel('First day'), '2028-03-31');
    await fillDate(seasonForm.getByLabel('Last day'), '2028-03-01');
    await seasonForm.getByRole('button', { name: 'Save season' }).click();
    await expect(seasonForm.getByText('The season must end after it starts.')).toBeVisible();

    const priceForm = page.getByRole('form', { name: 'Price change' });
    await priceForm.getByLabel('Price per unit and season, gross (€)').fill('-5');
    await priceForm.getByRole('button', { name: 'Save price change' }).click();
    await expect(priceForm.getByText('Amount in euros from 0.01 to 100,000, e.g. 95.00')).toBeVisible();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    expect(consoleErrors.filter((e) => !e.includes('409') && !e.includes('rpc/add_season'))).toEqual([]);
  });

  test('an admin edits a season in German, sees its English name in English, and deletes it', async ({ page, consoleErrors }) => {
    await page.goto('/account/admin/seasons');
    const seasons = page.getByRole('list', { name: 'Saisons' });
    const seasonForm = page.getByRole('form', { name: 'Saison anlegen' });
    await seasonForm.getByLabel('Name (deutsch)').fill('Winter 2031/32');
    await seasonForm.getByLabel('Name (englisch)').fill('Winter 2031/32 EN');
    await seasonForm.getByLabel('Art').selectOption('winter');
    await fillDate(seasonForm.getByLabel('Erster Tag'), '2031-11-01');
    await fillDate(seasonForm.getByLabel('Letzter Tag'), '2032-03-31');
    await seasonForm.getByRole('button', { name: 'Saison speichern' }).click();
    await expect(seasonForm.getByRole('status')).toHaveText('Saison gespeichert.');

    // Edit: new names, a later last day; the kind stays.
    await seasons.getByRole('button', { name: 'Winter 2031/32 bearbeiten' }).click();
    const edit = page.getByRole('form', { name: 'Saison bearbeiten' });
    await expect(edit.getByLabel('Name (englisch)')).toHaveValue('Winter 2031/32 EN');
    await expect(edit.getByLabel('Art')).toBeDisabled();
    await edit.getByLabel('Name (deutsch)').fill('Winterlager 2031/32');
    await edit.getByLabel('Name (englisch)').fill('Winter storage 2031/32');
    // Dates that overlap the winter 2027/28: refused with a sentence, the form stays open.
    await fillDate(edit.getByLabel('Erster Tag'), '2028-03-01');
    await fillDate(edit.getByLabel('Letzter Tag'), '2028-04-15');
    await edit.getByRole('button', { name: 'Änderungen speichern' }).click();
    await expect(edit.getByRole('alert')).toHaveText(
      'Diese Saison überschneidet sich mit einer anderen Saison derselben Art. Bitte die Daten prüfen.',
    );
    // A later last day instead.
    await fillDate(edit.getByLabel('Erster Tag'), '2031-11-01');
    await fillDate(edit.getByLabel('Letzter Tag'), '2032-04-15');
    await edit.getByRole('button', { name: 'Änderungen speichern' }).click();
    await expect(edit).toBeHidden();
    const edited = seasons.getByRole('listitem').filter({ hasText: 'Winterlager 2031/32' });
    await expect(edited).toContainText('Winter');
    await expect(edited).toContainText('1. Nov. 2031 –');
    await expect(edited).toContainText('15. Apr. 2032');

    // The English page shows the English name.
    await page.goto('/en/account/admin/seasons');
    const enSeasons = page.getByRole('list', { name: 'Seasons' });
    await expect(enSeasons.getByRole('listitem').filter({ hasText: 'Winter storage 2031/32' })).toBeVisible();
    await expect(enSeasons.getByRole('listitem').filter({ hasText: 'Summer 2027' })).toBeVisible();
    await expect(enSeasons).not.toContainText('Winterlager');

    // Delete it (nothing refers to it), confirmed first.
    await enSeasons.getByRole('button', { name: 'Delete Winter storage 2031/32' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete season?' });
    await expect(confirm).toContainText('Winter storage 2031/32');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toBeHidden();
    await expect(enSeasons.getByRole('listitem').filter({ hasText: 'Winter storage 2031/32' })).toHaveCount(0);
    expect(consoleErrors.filter((e) => !e.includes('409') && !e.includes('rpc/update_season'))).toEqual([]);
  });
});
