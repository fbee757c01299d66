import { useCallback, useSyncExternalStore } from 'react';
import { useRequestFacts } from '../../../lib/request-facts.ts';

/**
 * A cookie, not localStorage: the server renders the dashboard (docs/decisions/011) and
 * must show the balance as the customer left it. Only the page reads it.
 */
const cookieName = 'coffer-balance-visible';
const cookieMaxAgeSeconds = 400 * 24 * 60 * 60;
const listeners = new Set<() => void>();

function readIsVisible(): boolean {
  return document.cookie.split('; ').includes(`${cookieName}=1`);
}

function writeIsVisible(isVisible: boolean): void {
  const secure = window.location.protocol === 'https:' ? '; secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is async and newer than some browsers Coffer supports; this value needs no escaping.
  document.cookie = `${cookieName}=${isVisible ? 1 : 0}; path=/; max-age=${cookieMaxAgeSeconds}; samesite=lax${secure}`;
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
  const isVisible = useSyncExternalStore(subscribe, readIsVisible, () =>
    requestFacts ? requestFacts.cookies.get(cookieName) === '1' : false,
  );
  return [isVisible, useCallback(writeIsVisible, [])];
}
