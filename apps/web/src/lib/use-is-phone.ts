import { useMediaQuery } from '@mantine/hooks';

/** Below Mantine's `sm` breakpoint (48em): the side menu hides behind the burger. */
const phoneQuery = '(max-width: 47.99em)';

/**
 * Whether the screen is a phone's, read on the first render so nothing jumps. Only for
 * pages the app renders itself: a page the server renders (app/page-data.ts) is hydrated,
 * and the server cannot know the screen, so its layout follows the screen in CSS
 * (`hiddenFrom` / `visibleFrom`) instead.
 */
export function useIsPhone(): boolean {
  return useMediaQuery(phoneQuery, undefined, { getInitialValueInEffect: false });
}

/**
 * Whether the screen is a phone's, `false` until the page is on screen and its first
 * render done (hydrated or not): for what is not layout, such as keeping keyboard focus
 * out of the closed side menu.
 */
export function useIsPhoneOnceShown(): boolean {
  return useMediaQuery(phoneQuery, false, { getInitialValueInEffect: true });
}
