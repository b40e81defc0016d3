/**
 * The four bottom-navigation tabs, each with its own history stack of (unprefixed) paths.
 * The stacks live in sessionStorage, so they survive a reload of this browser tab.
 */
export type TabId = 'start' | 'service' | 'contact' | 'account';

export const tabRoots: Record<TabId, string> = {
  start: '/start',
  service: '/service',
  contact: '/contact',
  account: '/account',
};

export interface TabState {
  active: TabId;
  stacks: Record<TabId, string[]>;
}

const KEY = 'tab-histories';
const MAX = 30;

export function initialTabState(): TabState {
  return {
    active: 'start',
    stacks: { start: ['/start'], service: ['/service'], contact: ['/contact'], account: ['/account'] },
  };
}

/** Which tab a path belongs to; pages outside the four areas (privacy, terms...) stay in the active tab. */
export function tabOfPath(path: string): TabId | undefined {
  if (path === '/' || path.startsWith('/start') || path.startsWith('/order') || path === '/vertrag') return 'start';
  if (path.startsWith('/service') || path === '/drone-video') return 'service';
  if (path.startsWith('/contact')) return 'contact';
  if (path.startsWith('/account') || path.startsWith('/auth')) return 'account';
  return undefined;
}

export function loadTabState(): TabState {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (raw) {
      const parsed = JSON.parse(raw) as TabState;
      if (parsed?.stacks && parsed.active in tabRoots) return parsed;
    }
  } catch {
    // unreadable: start fresh
  }
  return initialTabState();
}

export function saveTabState(state: TabState) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(state));
  } catch {
    // storage full or blocked: histories then last only for this page load
  }
}

/**
 * Records a visit to `path` (unprefixed, with search). Going to the entry below the top of a
 * tab's stack (the browser's back button) pops; any other new path is pushed.
 */
export function recordVisit(state: TabState, path: string): TabState {
  const pathname = path.split(/[?#]/)[0];
  const tab = tabOfPath(pathname) ?? state.active;
  const stack = state.stacks[tab] ?? [tabRoots[tab]];
  let next: string[];
  if (stack[stack.length - 1] === path) next = stack;
  else if (stack[stack.length - 2] === path) next = stack.slice(0, -1);
  else if (pathname === tabRoots[tab] || (tab === 'start' && pathname === '/')) next = [path];
  else next = [...stack, path].slice(-MAX);
  if (next === stack && tab === state.active) return state;
  return { active: tab, stacks: { ...state.stacks, [tab]: next } };
}

/** The back action: the previous entry of the active tab's history, if there is one. */
export function backTarget(state: TabState): { state: TabState; path: string } | undefined {
  const stack = state.stacks[state.active];
  if (stack.length < 2) return undefined;
  const next = stack.slice(0, -1);
  return { state: { ...state, stacks: { ...state.stacks, [state.active]: next } }, path: next[next.length - 1] };
}

/** A tap on a tab: the active tab goes back to its root, another tab to where it was. */
export function tabTarget(state: TabState, tab: TabId): { state: TabState; path: string } {
  if (tab === state.active) {
    return { state: { ...state, stacks: { ...state.stacks, [tab]: [tabRoots[tab]] } }, path: tabRoots[tab] };
  }
  const stack = state.stacks[tab];
  return { state: { ...state, active: tab }, path: stack[stack.length - 1] ?? tabRoots[tab] };
}
