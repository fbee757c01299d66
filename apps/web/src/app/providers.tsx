import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { cssVariablesResolver, theme } from './theme.ts';
import { ToastHost } from './toast-host.tsx';

/**
 * Where the chosen colour scheme is kept. The server-rendered landing page reads the same
 * key before it paints (public/color-scheme.js), so it opens in the scheme chosen here.
 */
const colorSchemeStorageKey = 'coffer-color-scheme';

/** Mantine's settings, the same for the app and the server-rendered landing page. */
export const mantineSettings = {
  theme,
  cssVariablesResolver,
  defaultColorScheme: 'light',
} as const;

const colorSchemeManager = localStorageColorSchemeManager({ key: colorSchemeStorageKey });

export function Providers({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider {...mantineSettings} colorSchemeManager={colorSchemeManager}>
        <ToastHost />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
