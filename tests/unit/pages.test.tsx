import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { NotFoundPage } from '@/components/errors/not-found-page';
import { PricesPage } from '@/features/prices/components/prices-page';
import { renderPage } from './render';

describe('404 page', () => {
  it('says 404 Not Found in English', async () => {
    await renderPage(NotFoundPage, { locale: 'en' });
    expect(await screen.findByRole('heading', { level: 1, name: '404 Not Found' })).toBeTruthy();
    expect(screen.getByText('This page could not be found')).toBeTruthy();
  });

  it('and 404 Nicht gefunden in German', async () => {
    await renderPage(NotFoundPage, { locale: 'de' });
    expect(await screen.findByRole('heading', { level: 1, name: '404 Nicht gefunden' })).toBeTruthy();
  });
});

describe('price list', () => {
  it('lists every constant of spec section 9, net with VAT noted', async () => {
    await renderPage(PricesPage, { locale: 'en' });
    await screen.findByRole('heading', { level: 1, name: 'Prices' });
    const text = document.body.textContent ?? '';
    for (const expected of ['€2.00', '€1.00', '€10.00', '€5.00', 'from €100.00', '€3.00', '€20.00', '08:00–22:00', 'at most 5 hours', '19%', '2 hours']) {
      expect(text).toContain(expected);
    }
  });
});
