/**
 * src/lib/lingui-literal.ts: values a person typed come out of `<Trans>` and `t` exactly as
 * typed, while Lingui alone parses them (the "raw" cases show what the wrapper prevents).
 */
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setupI18n, type Messages } from '@lingui/core';
import { I18nProvider, Trans as LinguiTrans } from '@lingui/react';
import { Trans, keepValuesLiteral } from '@/lib/lingui-literal';
import { BookingRow } from '@/features/account/components/bookings';
import type { Order } from '@/features/orders/api/types';
import { renderPage } from './render';

afterEach(cleanup);

// Compiled messages as the Lingui Vite plugin makes them from the .po files.
const messages = {
  guest: ['Gast: ', ['name']],
  bold: ['Gast: <0>', ['name'], '</0>'],
  boats: [['n', 'plural', { one: ['#', ' Boot von ', ['name']], other: ['#', ' Boote von ', ['name']] }]],
  kind: [['kind', 'select', { day: ['Tag'], other: ['Nacht'] }]],
  escaped: ['Pfeil \\u2192 ', ['name']],
} as unknown as Messages;

const instance = (literal: boolean) => {
  const i18n = setupI18n({ locale: 'de', messages: { de: messages } });
  return literal ? keepValuesLiteral(i18n) : i18n;
};

const PAYLOADS = ['<b>x</b>', '<0>y</0>', '<script>alert(1)</script>', 'a<br/>b', '<1/> & <0/>', 'Kiel <3 Hafen', 'x</0><0>z'];

describe('<Trans> with literal values', () => {
  for (const value of PAYLOADS) {
    it(`shows ${value} as typed, without an element`, () => {
      const i18n = instance(true);
      const { container } = render(
        <I18nProvider i18n={i18n}>
          <p data-testid="plain">
            <Trans id="guest" values={{ name: value }} />
          </p>
          <p data-testid="bold">
            <Trans id="bold" values={{ name: value }} components={{ 0: <strong /> }} />
          </p>
        </I18nProvider>,
      );
      expect(container.querySelector('[data-testid="plain"]')!.textContent).toBe(`Gast: ${value}`);
      expect(container.querySelector('[data-testid="bold"]')!.textContent).toBe(`Gast: ${value}`);
      expect(container.querySelector('strong')!.textContent).toBe(value);
      expect(container.querySelectorAll('b, br, script, strong strong')).toHaveLength(0);
    });
  }

  it('Lingui alone parses the tags of a value (what the wrapper prevents)', () => {
    const { container } = render(
      <I18nProvider i18n={instance(false)}>
        <p data-testid="raw">
          <LinguiTrans id="guest" values={{ name: '<0>y</0>' }} components={{ 0: <strong /> }} />
        </p>
        <p data-testid="b">
          <LinguiTrans id="guest" values={{ name: '<b>x</b>' }} />
        </p>
      </I18nProvider>,
    );
    // the value's <0> became the message's component 0, and its tags are gone from the text
    expect(container.querySelector('[data-testid="raw"]')!.textContent).toBe('Gast: y');
    expect(container.querySelector('strong')!.textContent).toBe('y');
    expect(container.querySelector('[data-testid="b"]')!.textContent).toBe('Gast: x');
  });

  it('keeps numbers, plain strings and select keys as they were', () => {
    const i18n = instance(true);
    const { container } = render(
      <I18nProvider i18n={i18n}>
        <p data-testid="plural">
          <Trans id="boats" values={{ n: 2, name: 'Möwe' }} />
        </p>
        <p data-testid="select">
          <Trans id="kind" values={{ kind: 'day' }} />
        </p>
      </I18nProvider>,
    );
    expect(container.querySelector('[data-testid="plural"]')!.textContent).toBe('2 Boote von Möwe');
    expect(container.querySelector('[data-testid="select"]')!.textContent).toBe('Tag');
  });

  it('is what the <Trans> macro of the app compiles to (lingui.config.ts runtimeConfigModule)', async () => {
    const name = '<b>x</b> <0>y</0> <script>alert(1)</script>';
    const order = {
      id: 'o1',
      starts_at: '2030-06-01T12:00:00Z',
      ends_at: '2030-06-02T09:00:00Z',
      status: 'confirmed',
      place_snapshot: { name },
      boat: { name: 'Möwe' },
    } as unknown as Order;
    const { container } = await renderPage(() => (
      <ul>
        <BookingRow order={order} />
      </ul>
    ));
    await expect.poll(() => container.querySelector('[data-testid="booking"]')?.textContent ?? '').toContain(`Liegeplatz ${name} · Möwe`);
    expect(container.querySelectorAll('b, script')).toHaveLength(0);
  });
});

describe('t / i18n._ with literal values', () => {
  const typed = ['\\u0041', '\\x41\\u00e9', '%__lingui_octothorpe__%', '\uE0000\uE000', 'C:\\Boote\\neu', '$1 $& $$'];
  for (const value of typed) {
    it(`puts ${JSON.stringify(value)} in as typed`, () => {
      const i18n = instance(true);
      expect(i18n._('guest', { name: value })).toBe(`Gast: ${value}`);
      expect(i18n.t({ id: 'guest', values: { name: value } })).toBe(`Gast: ${value}`);
      expect(i18n._('boats', { n: 1, name: value })).toBe(`1 Boot von ${value}`);
    });
  }

  it('still decodes the escapes of the message itself, and fills every value', () => {
    const i18n = instance(true);
    expect(i18n._('escaped', { name: '\\u2192' })).toBe('Pfeil \u2192 \\u2192');
    expect(i18n._('boats', { n: 3, name: 'a\\u0041' })).toBe('3 Boote von a\\u0041');
  });

  it('Lingui alone decodes escapes typed into a value (what the wrapper prevents)', () => {
    const i18n = instance(false);
    expect(i18n._('guest', { name: '\\u0041' })).toBe('Gast: A');
    expect(i18n._('boats', { n: 1, name: '%__lingui_octothorpe__%' })).toBe('1 Boot von 1');
  });
});
