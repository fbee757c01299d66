import { useMediaQuery } from '@mantine/hooks';

/**
 * Below Mantine's `sm` breakpoint (48em): the side menu hides behind the burger and wide
 * tables turn into stacked cards. Read on the first render, so nothing jumps.
 */
export function useIsPhone(): boolean {
  return useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
}
