import { describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { stateOf } from '@/features/admin/map/api/map';
import { parseColumn } from '@/features/admin/additional-places/schemas/column';
import type { CalendarEntry } from '@/features/harbour/calendar/api/calendar';

// The schema's messages are Lingui messages, evaluated when a check fails.
i18n.loadAndActivate({ locale: 'de', messages: {} });

const entry = (type: CalendarEntry['type'], block_reason: CalendarEntry['block_reason'] = null): CalendarEntry => ({
  id: type,
  place_id: 'p',
  place_name: 'A01',
  type,
  order_id: null,
  order_status: null,
  starts_at: '2026-11-22T13:00:00Z',
  ends_at: null,
  note: null,
  boat_name: null,
  guest: null,
  block_reason,
});

describe('harbour map: a berth state today', () => {
  it('is free without occupations', () => expect(stateOf([])).toBe('free'));
  it('maps staff blocks to maintenance', () => expect(stateOf([entry('service', 'reserved')])).toBe('maintenance'));
  it('prefers rent over reservation over long-term over maintenance', () => {
    expect(stateOf([entry('service', 'maintenance'), entry('long_term')])).toBe('long_term');
    expect(stateOf([entry('long_term'), entry('reservation')])).toBe('reservation');
    expect(stateOf([entry('reservation'), entry('rent')])).toBe('rent');
  });
});

describe('column position', () => {
  const base = { type: 'electric' as const, name: 'Stromsäule Z1' };
  it('needs exactly two coordinates on the plan', () => {
    expect(parseColumn({ ...base, x: '', y: '' })).toEqual({ errors: ['position'] });
    expect(parseColumn({ ...base, x: '10', y: '' })).toEqual({ errors: ['position'] });
    expect(parseColumn({ ...base, x: '10', y: '601' })).toEqual({ errors: ['position'] });
    expect(parseColumn({ ...base, x: '-1', y: '10' })).toEqual({ errors: ['position'] });
    expect(parseColumn({ ...base, x: 'abc', y: '10' })).toEqual({ errors: ['position'] });
  });
  it('accepts a decimal comma and trims the name', () => {
    expect(parseColumn({ ...base, name: '  Z2 ', x: '12,5', y: '600' })).toEqual({
      input: { type: 'electric', name: 'Z2', position: [12.5, 600] },
    });
  });
  it('needs a name', () => expect(parseColumn({ ...base, name: ' ', x: '1', y: '1' })).toEqual({ errors: ['name'] }));
});
