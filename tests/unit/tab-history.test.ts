import { describe, expect, it } from 'vitest';
import { backTarget, initialTabState, recordVisit, tabTarget } from '@/components/layout/tab-history';

describe('tab histories', () => {
  it('pushes within a tab, pops on the previous entry, and keeps other tabs', () => {
    let s = initialTabState();
    s = recordVisit(s, '/start/prices');
    s = recordVisit(s, '/service');
    s = recordVisit(s, '/service/lift');
    expect(s.active).toBe('service');
    expect(s.stacks.service).toEqual(['/service', '/service/lift']);
    expect(s.stacks.start).toEqual(['/start', '/start/prices']);
    s = recordVisit(s, '/service');
    expect(s.stacks.service).toEqual(['/service']);
  });

  it('a tap on another tab returns to where it was; on the active tab to its root', () => {
    let s = initialTabState();
    s = recordVisit(s, '/start/prices');
    s = recordVisit(s, '/contact');
    expect(tabTarget(s, 'start').path).toBe('/start/prices');
    s = recordVisit(s, '/start/prices');
    const t = tabTarget(s, 'start');
    expect(t.path).toBe('/start');
    expect(t.state.stacks.start).toEqual(['/start']);
  });

  it('pages outside the four areas belong to the active tab; back walks that history', () => {
    let s = initialTabState();
    s = recordVisit(s, '/service');
    s = recordVisit(s, '/privacy');
    expect(s.stacks.service).toEqual(['/service', '/privacy']);
    expect(backTarget(s)?.path).toBe('/service');
    expect(backTarget(initialTabState())).toBeUndefined();
  });
});
