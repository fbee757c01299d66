import { type MantineBreakpoint, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The phone's form of a table: a list of cards (`<Paper component="li">` each), named as
 * the table is for screen readers. `hiddenFrom` hides it where the table shows instead.
 */
export function CardList({
  label,
  hiddenFrom,
  children,
}: {
  label: string;
  hiddenFrom?: MantineBreakpoint;
  children: ReactNode;
}) {
  return (
    <Stack
      component="ul"
      aria-label={label}
      gap="sm"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
      hiddenFrom={hiddenFrom}
    >
      {children}
    </Stack>
  );
}
