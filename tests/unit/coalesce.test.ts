import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coalesce } from '@/lib/coalesce';

describe('coalesce', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the first call at once and a burst inside the window as one call at its end', () => {
    const fn = vi.fn();
    const call = coalesce(fn, 1000);
    call();
    expect(fn).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 20; i++) {
      vi.advanceTimersByTime(40);
      call();
    }
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(200);
    expect(fn).toHaveBeenCalledTimes(2);
    // Nothing more without new calls.
    vi.advanceTimersByTime(5000);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('under a steady stream calls once per window, never more and never starving', () => {
    const fn = vi.fn();
    const call = coalesce(fn, 500);
    for (let t = 0; t < 5000; t += 100) {
      call();
      vi.advanceTimersByTime(100);
    }
    // 10 windows in 5 s; the last event's call is at most one window late.
    expect(fn.mock.calls.length).toBeGreaterThanOrEqual(10);
    expect(fn.mock.calls.length).toBeLessThanOrEqual(11);
  });

  it('a call after a quiet window runs at once again', () => {
    const fn = vi.fn();
    const call = coalesce(fn, 300);
    call();
    vi.advanceTimersByTime(301);
    call();
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('cancel drops the pending call', () => {
    const fn = vi.fn();
    const call = coalesce(fn, 300);
    call();
    call();
    call.cancel();
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
