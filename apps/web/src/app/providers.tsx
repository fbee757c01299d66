import { directionOf, isLanguage, sourceLanguage } from '@coffer/contracts/languages';
import type { I18n } from '@lingui/core';
import { I18nProvider, useLingui } from '@lingui/react';
import {
  DirectionProvider,
  localStorageColorSchemeManager,
  MantineProvider,
  useDirection,
} from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useLayoutEffect } from 'react';
import { cssVariablesResolver, theme } from './theme.ts';
import { ToastHost } from './toast-host.tsx';

/**
 * Where the chosen colour scheme is kept. The server-rendered landing page reads the same
 * key before it paints (public/color-scheme.js), so it opens in the scheme chosen here.
 */
const colorSchemeStorageKey = 'coffer-color-scheme';

/**
 * Mantine's settings, the same for the app and the server-rendered landing page. The theme's
 * CSS variables and Mantine's hiddenFrom/visibleFrom classes come from a stylesheet made from
 * the theme (theme-variables.css), not from a <style> the provider would work out on every
 * render, in the server and again in the browser while it hydrates.
 */
export const mantineSettings = {
  theme,
  cssVariablesResolver,
  defaultColorScheme: 'light',
  withCssVariables: false,
  withGlobalClasses: false,
} as const;

const colorSchemeManager = localStorageColorSchemeManager({ key: colorSchemeStorageKey });

/** Mantine lays its components out in the direction of the language in use (Arabic: rtl). */
function DirectionOfLanguage() {
  const { i18n } = useLingui();
  const { dir, setDirection } = useDirection();
  const languageDirection = directionOf(isLanguage(i18n.locale) ? i18n.locale : sourceLanguage);
  useLayoutEffect(() => {
    if (dir !== languageDirection) setDirection(languageDirection);
  }, [dir, languageDirection, setDirection]);
  return null;
}

export function Providers({
  queryClient,
  i18n,
  children,
}: {
  queryClient: QueryClient;
  /** The browser's one instance, or the server's own for the render (lib/i18n.ts). */
  i18n: I18n;
  children: ReactNode;
}) {
  const direction = directionOf(isLanguage(i18n.locale) ? i18n.locale : sourceLanguage);
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider i18n={i18n}>
        <DirectionProvider initialDirection={direction} detectDirection={false}>
          <DirectionOfLanguage />
          <MantineProvider {...mantineSettings} colorSchemeManager={colorSchemeManager}>
            <ToastHost />
            {children}
          </MantineProvider>
        </DirectionProvider>
      </I18nProvider>
    </QueryClientProvider>
  );
}
