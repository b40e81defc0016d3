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
  it('says every price includes VAT and never calls a price net (the prices come from the database: tests/e2e/prices.spec.ts)', async () => {
    await renderPage(PricesPage, { locale: 'en' });
    await screen.findByRole('heading', { level: 1, name: 'Prices' });
    const text = document.body.textContent ?? '';
    expect(text).toContain('All prices are total prices in euros, including statutory VAT.');
    expect(text).not.toMatch(/\bnet\b|plus VAT/i);
  });
});
