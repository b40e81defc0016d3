import { describe, expect, it } from 'vitest';
import { safeInternalPath } from '@/lib/auth';
import { formatEuro } from '@/lib/prices';
import { vatInGross } from '@/features/prices/api/price-list';
import { localeFromPath, stripLocale, withLocale } from '@/lib/i18n';
import { dailyMeans } from '@/features/service/api/pegelonline';
import { summariseDays } from '@/features/service/api/brightsky';
import { isChunkLoadError } from '@/lib/chunk-reload';

describe('redirect targets', () => {
  it('follows only internal paths', () => {
    expect(safeInternalPath('/account/profile?x=1')).toBe('/account/profile?x=1');
    expect(safeInternalPath('/en/account')).toBe('/en/account');
    expect(safeInternalPath('https://evil.example/')).toBeUndefined();
    expect(safeInternalPath('//evil.example/x')).toBeUndefined();
    expect(safeInternalPath('/\\evil.example')).toBeUndefined();
    expect(safeInternalPath('javascript:alert(1)')).toBeUndefined();
    expect(safeInternalPath(undefined)).toBeUndefined();
  });
});

describe('prices', () => {
  it('takes the VAT out of a gross price half up (as the database) and formats per locale', () => {
    expect(vatInGross(7140, 19)).toBe(1140);
    expect(vatInGross(288, 19)).toBe(46); // 45.98 -> 46
    expect(vatInGross(300, 7)).toBe(20); // 19.63 -> 20
    expect(formatEuro(238, 'de')).toBe('2,38\u00a0€');
    expect(formatEuro(10000, 'en')).toBe('€100.00');
  });
});

describe('locale paths', () => {
  it('reads, strips and adds the prefix', () => {
    expect(localeFromPath('/en/service')).toBe('en');
    expect(localeFromPath('/fr/service')).toBeUndefined();
    expect(stripLocale('/de')).toBe('/');
    expect(stripLocale('/en/service/lift')).toBe('/service/lift');
    expect(stripLocale('/service')).toBe('/service');
    expect(withLocale('/', 'en')).toBe('/en');
    expect(withLocale('/start', undefined)).toBe('/start');
  });
});

describe('service data', () => {
  it('averages 15-minute water levels per Berlin day', () => {
    const days = dailyMeans([
      { timestamp: '2026-11-20T22:30:00Z', value: 100 }, // 23:30 Berlin, 20 Nov
      { timestamp: '2026-11-20T23:30:00Z', value: 200 }, // 00:30 Berlin, 21 Nov
      { timestamp: '2026-11-21T10:00:00Z', value: 300 },
    ]);
    expect(days).toEqual([
      { day: '2026-11-20', value: 100 },
      { day: '2026-11-21', value: 250 },
    ]);
  });

  it('summarises hourly forecasts per day', () => {
    const days = summariseDays([
      { timestamp: '2026-11-21T08:00:00Z', temperature: 4.4, precipitation: 0.5, wind_speed: 12, icon: 'cloudy' },
      { timestamp: '2026-11-21T12:00:00Z', temperature: 9.6, precipitation: 1, wind_speed: 20, icon: 'rain' },
    ]);
    expect(days).toEqual([{ day: '2026-11-21', min: 4, max: 10, precipitation: 1.5, wind: 20, icon: 'rain' }]);
  });

  it('recognises failed chunk loads', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isChunkLoadError(new Error('boom'))).toBe(false);
  });
});
