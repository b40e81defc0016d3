import { useSyncExternalStore } from 'react';
import type { BerthDataValues } from '@/features/booking/schemas/berth-values';
import type { StoredPerson } from '@/features/booking/schemas/person';
import type { PlaceResult } from '@/features/booking/api/types';

/** How the person proceeds at step 3 (docs/architecture.md "Identity, guests and verification": one path for everyone). */
export type IdentityMode = 'customer' | 'new' | 'login-code' | 'guest';

export interface FlowIdentity {
  mode: IdentityMode;
  email: string;
  firstName: string;
  lastName: string;
  /** The e-mail has been proven by code (or the person logged in with a password). */
  verified: boolean;
  /** The code step was skipped: the booking stays unverified for 24 hours. */
  skipped: boolean;
}

export interface FlowState {
  berth?: BerthDataValues;
  place?: PlaceResult;
  identity?: FlowIdentity;
  /** The person form as typed so far (kept across a reload). */
  person?: StoredPerson;
  /** The sale code applied in the summary step (the summary panel prices with it too). */
  saleCode?: string;
  /** Set when the chosen berth was taken meanwhile: step 2 tells the person so. */
  notice?: 'berth-taken';
}

export const steps = [1, 2, 3, 4, 5] as const;
export type Step = (typeof steps)[number];

const KEY = 'booking-flow';
let state: FlowState | undefined;
const listeners = new Set<() => void>();

function load(): FlowState {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as FlowState) : {};
  } catch {
    return {};
  }
}

export function getFlow(): FlowState {
  state ??= load();
  return state;
}

let finished = false;

/** Updates the flow and keeps it in session storage, so a reload keeps the flow. */
export function updateFlow(patch: Partial<FlowState> | ((s: FlowState) => FlowState)) {
  const current = getFlow();
  state = typeof patch === 'function' ? patch(current) : { ...current, ...patch };
  if (finished) return;
  try {
    sessionStorage.setItem(KEY, JSON.stringify(state));
  } catch {
    // storage blocked: the flow still works until a reload
  }
  for (const l of listeners) l();
}

/**
 * The booking is made: the stored flow is dropped at once (a reload or the next visit starts
 * fresh), while the page keeps its state until the result page has replaced it (resetFlow).
 */
export function finishFlow() {
  finished = true;
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing stored
  }
}

export function resetFlow() {
  finished = false;
  state = {};
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing stored
  }
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useBookingFlow(): FlowState {
  return useSyncExternalStore(subscribe, getFlow, getFlow);
}

/** The furthest step the data collected so far allows. */
export function reachableStep(s: FlowState, loggedIn: boolean): Step {
  if (!s.berth) return 1;
  if (!s.place) return 2;
  if (loggedIn) return 5;
  if (!s.identity) return 3;
  if (!s.identity.verified && !s.identity.skipped) return 4;
  return 5;
}

/** Has the person typed anything worth warning about before leaving? */
export function flowHasData(s: FlowState): boolean {
  return !finished && !!(s.berth || s.place || s.identity);
}
