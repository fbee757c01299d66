import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';

/** Below Mantine's `sm` breakpoint (48em): the side menu hides behind the burger. */
const phoneQuery = '(max-width: 47.99em)';

function subscribeToScreen(onChange: () => void): () => void {
  const query = window.matchMedia(phoneQuery);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const isPhoneScreen = () => window.matchMedia(phoneQuery).matches;

export type ScreenLayout = 'phone' | 'desktop' | 'both';

/**
 * Whether the app is hydrating a page the server rendered (src/main.tsx sets it before
 * hydrating and clears it once hydration has committed).
 */
let isHydratingServerPage = false;

export function setHydratingServerPage(isHydrating: boolean): void {
  isHydratingServerPage = isHydrating;
}

const screenLayout = (): ScreenLayout => (isPhoneScreen() ? 'phone' : 'desktop');

/**
 * The layout to draw for this screen. The server cannot know the screen, so on the server
 * and while the app hydrates a page the server rendered (app/page-data.ts), it is `both`:
 * the component draws the phone's layout and the wider one, and CSS (`hiddenFrom` /
 * `visibleFrom`) shows the one that fits, so nothing moves and the markup matches. Right
 * after, and on every page the app renders itself, it is the one that fits.
 *
 * Not `useSyncExternalStore`: after hydration that re-renders every table at once, in one
 * task, to drop the layout that does not fit (docs/decisions/031). Dropping it is not
 * urgent (CSS already hides it), so it is a transition, which yields to the browser.
 */
export function useScreenLayout(): ScreenLayout {
  const [layout, setLayout] = useState<ScreenLayout>(() =>
    typeof window === 'undefined' || isHydratingServerPage ? 'both' : screenLayout(),
  );
  useEffect(() => {
    const follow = () => startTransition(() => setLayout(screenLayout()));
    follow();
    return subscribeToScreen(follow);
  }, []);
  return layout;
}

/**
 * Whether the screen is a phone's, read on the first render of a page the app renders, so
 * nothing jumps. On the server and while a server-rendered page is hydrated it is `false`,
 * as the server drew it, and becomes the screen's right after: a component on such a page
 * whose layout must not change once shown draws both layouts instead (`useScreenLayout`).
 */
export function useIsPhone(): boolean {
  return useSyncExternalStore(subscribeToScreen, isPhoneScreen, () => false);
}

/**
 * Whether the screen is a phone's, `false` until the page is on screen and its first
 * render done (hydrated or not): for what is not layout, such as keeping keyboard focus
 * out of the closed side menu. The change is a transition, as in `useScreenLayout`: set
 * right after hydration (Mantine's `useMediaQuery` did), it re-rendered the whole signed-in
 * frame, every menu link, in one task on every phone (docs/decisions/031).
 */
export function useIsPhoneOnceShown(): boolean {
  const [isPhone, setIsPhone] = useState(false);
  useEffect(() => {
    const follow = () => startTransition(() => setIsPhone(isPhoneScreen()));
    follow();
    return subscribeToScreen(follow);
  }, []);
  return isPhone;
}
