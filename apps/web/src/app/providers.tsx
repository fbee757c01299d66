import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { toastDurationsMs } from '../lib/toasts.ts';
import { createQueryClient } from './query-client.ts';
import { cssVariablesResolver, theme } from './theme.ts';

const colorSchemeManager = localStorageColorSchemeManager({ key: 'coffer-color-scheme' });

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="light"
        colorSchemeManager={colorSchemeManager}
      >
        {/* Toasts close after 5 s unless a caller asks otherwise (PRODUCT.md, section 5). */}
        <Notifications autoClose={toastDurationsMs.standard} limit={5} />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
