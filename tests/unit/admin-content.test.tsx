import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderPage } from './render';
import { activateLocale } from '@/lib/i18n';
import { centsToEuro, euroToCents, saleCodeSchema } from '@/features/admin/sale-codes/schemas/sale-code';
import { berlinLocalToIso, isoToBerlinLocal, newsSchema } from '@/features/admin/news/schemas/news';
import { SaleCodeCreatePage } from '@/features/admin/sale-codes/components/sale-code-form-page';
import { checkImage, IMAGE_MAX_BYTES } from '@/features/admin/shared/image-upload';
import { staffErrorMessage } from '@/lib/errors/staff-messages';

describe('sale code amounts', () => {
  it('reads euros with a comma or a point as cents, and writes them back per locale', () => {
    expect(euroToCents('2,5')).toBe(250);
    expect(euroToCents('2.50')).toBe(250);
    expect(euroToCents('0')).toBe(0);
    expect(euroToCents(' 10,05 ')).toBe(1005);
    expect(euroToCents('-3')).toBeNull();
    expect(euroToCents('1,234')).toBeNull();
    expect(euroToCents('abc')).toBeNull();
    expect(centsToEuro(250, 'de')).toBe('2,50');
    expect(centsToEuro(250, 'en')).toBe('2.50');
  });

  it('the schema refuses spaces in codes and amounts above 1000 euros', async () => {
    await activateLocale('de', '/account/admin');
    expect(saleCodeSchema.safeParse({ code: 'RHEIN5', type: 'set-additional-costs', value: '5,00' }).success).toBe(true);
    expect(saleCodeSchema.safeParse({ code: 'mit leer', type: 'set-additional-costs', value: '5' }).success).toBe(false);
    expect(saleCodeSchema.safeParse({ code: 'AB', type: 'set-additional-costs', value: '5' }).success).toBe(false);
    expect(saleCodeSchema.safeParse({ code: 'TEUER', type: 'set-additional-costs', value: '1000,01' }).success).toBe(false);
  });
});

describe('news times in Düsseldorf', () => {
  it('reads datetime-local values as Berlin wall-clock time across DST', () => {
    expect(berlinLocalToIso('2027-01-17T10:00')).toBe('2027-01-17T09:00:00.000Z');
    expect(berlinLocalToIso('2027-07-01T10:00')).toBe('2027-07-01T08:00:00.000Z');
    expect(berlinLocalToIso('2027-13-01T10:00')).toBeNull();
    expect(berlinLocalToIso('')).toBeNull();
    expect(isoToBerlinLocal('2027-07-01T08:00:00Z')).toBe('2027-07-01T10:00');
  });

  it('the end must be after the start', async () => {
    await activateLocale('de', '/account/admin');
    const base = {
      title: 'T',
      titleEn: 'T',
      shortDescription: '',
      shortDescriptionEn: '',
      description: '',
      descriptionEn: '',
      imagePath: '',
      location: 'duesseldorf',
      dates: [],
    };
    expect(newsSchema.safeParse({ ...base, start: '2027-01-17T10:00', end: '2027-01-17T11:00' }).success).toBe(true);
    const bad = newsSchema.safeParse({ ...base, start: '2027-01-17T10:00', end: '2027-01-17T10:00' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['end'], message: 'Das Ende muss nach dem Beginn liegen' });
  });
});

describe('images and errors', () => {
  it('checks type and size before an upload', () => {
    expect(checkImage(new File(['x'], 'a.png', { type: 'image/png' }))).toBeNull();
    expect(checkImage(new File(['x'], 'a.gif', { type: 'image/gif' }))).toBe('wrong_type');
    expect(checkImage(new File([new Uint8Array(IMAGE_MAX_BYTES + 1)], 'a.jpg', { type: 'image/jpeg' }))).toBe('too_large');
  });

  it("turns database errors into sentences in the user's language", async () => {
    await activateLocale('en', '/account/admin');
    expect(staffErrorMessage({ code: 'P0001', message: 'cannot_remove_own_admin' })).toBe(
      'You cannot remove your own admin role. Another admin must do that.',
    );
    expect(staffErrorMessage({ code: '23505', message: 'duplicate key' })).toBe('This entry already exists.');
    expect(staffErrorMessage({ code: 'XX000', message: 'boom' })).toBe('That did not work. Please try again.');
    await activateLocale('de', '/account/admin');
    expect(staffErrorMessage({ code: '42501' })).toBe('Dafür fehlen Ihnen die Rechte.');
  });
});

describe('create code form', () => {
  it('shows the validation messages in English and opens no dialog for bad input', async () => {
    await renderPage(() => <SaleCodeCreatePage />, { locale: 'en' });
    expect(screen.getByRole('heading', { level: 1, name: 'Create code' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'with space' } });
    fireEvent.change(screen.getByLabelText('Additional costs per night (euros)'), { target: { value: '5000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByText('Only letters A–Z, digits, - and _')).toBeTruthy());
    expect(screen.getByText('Please enter an amount between 0 and 1000 euros, e.g. 5.00')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('asks for confirmation before creating (spec: confirmation dialog for create code)', async () => {
    await renderPage(() => <SaleCodeCreatePage />, { locale: 'de' });
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'sommer' } });
    fireEvent.change(screen.getByLabelText('Nebenkosten pro Nacht (Euro)'), { target: { value: '2,5' } });
    expect(await screen.findByText('Nebenkosten 2,50 € statt 10,00 € pro Nacht')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Speichern' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Code erstellen' });
    expect(dialog.textContent).toContain('Möchten Sie den Code SOMMER wirklich erstellen?');
  });
});
