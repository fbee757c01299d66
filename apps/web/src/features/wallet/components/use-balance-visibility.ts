import { useCallback, useSyncExternalStore } from 'react';
import { readPreferenceCookie, writePreferenceCookie } from '../../../lib/preference-cookies.ts';
import { useRequestFacts } from '../../../lib/request-facts.ts';

/**
 * A cookie, not localStorage: the server renders the dashboard (docs/decisions/011) and
 * must show the balance as the customer left it.
 */
const cookieName = 'coffer-balance-visible';
const listeners = new Set<() => void>();

function readIsVisible(): boolean {
  return readPreferenceCookie(cookieName) === '1';
}

function writeIsVisible(isVisible: boolean): void {
  writePreferenceCookie(cookieName, isVisible ? '1' : '0');
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Whether the customer chose to show their balance (hidden until they do, in case someone
 * looks over their shoulder). Remembered in this browser; every component that shows the
 * balance reads the same setting and follows when it changes.
 */
export function useBalanceVisibility(): [
  isVisible: boolean,
  setIsVisible: (isVisible: boolean) => void,
] {
  const requestFacts = useRequestFacts();
  // The server reads the request's cookie; the browser, hydrating what the server sent,
  // the same cookie.
  const isVisible = useSyncExternalStore(subscribe, readIsVisible, () =>
    requestFacts ? requestFacts.cookies.get(cookieName) === '1' : readIsVisible(),
  );
  return [isVisible, useCallback(writeIsVisible, [])];
}
