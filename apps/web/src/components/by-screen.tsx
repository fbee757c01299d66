import { Box } from '@mantine/core';
import type { ReactNode } from 'react';
import { useScreenLayout } from '../lib/use-is-phone.ts';

/**
 * A piece of a page drawn one way on a phone and another on wider screens: both on a page
 * the server rendered until the app has taken over (CSS shows the one that fits), then only
 * the one that fits. Each keeps its place in the tree either way, so dropping the other
 * after the takeover unmounts only that one: the one kept is not drawn anew. With its
 * element unchanged, React does not even render it again (a table of 25 customers, drawn
 * anew at the takeover, was most of the customer list's blocking time on a slow phone).
 */
export function ByScreen({ phone, wide }: { phone: ReactNode; wide: ReactNode }) {
  const layout = useScreenLayout();
  return (
    <>
      {layout !== 'desktop' && <Box hiddenFrom="sm">{phone}</Box>}
      {layout !== 'phone' && <Box visibleFrom="sm">{wide}</Box>}
    </>
  );
}
