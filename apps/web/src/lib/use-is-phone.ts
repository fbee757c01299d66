import { useMediaQuery } from '@mantine/hooks';
import { useRequestFacts } from './request-facts.ts';

/**
 * Below Mantine's `sm` breakpoint (48em): the side menu hides behind the burger and wide
 * tables turn into stacked cards. Read on the first render, so nothing jumps; the server
 * goes by the user agent's guess.
 */
export function useIsPhone(): boolean {
  const requestFacts = useRequestFacts();
  return useMediaQuery('(max-width: 47.99em)', requestFacts ? requestFacts.isPhone : undefined, {
    getInitialValueInEffect: requestFacts !== null,
  });
}
