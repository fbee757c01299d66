import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import type { QueryClient } from '@tanstack/react-query';
import { type ReactNode, StrictMode, startTransition, useLayoutEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { prefetchEveryPageData, serverRenderedPages } from './app/page-data.ts';
import { Providers } from './app/providers.tsx';
import { createQueryClient } from './app/query-client.ts';
import { createAppRouter } from './app/router.tsx';
import { dateRegionName, rememberTimeZone } from './lib/dates.ts';
import {
  dateRegionAttribute,
  servePrerenderedAnswers,
  serverRenderedAttribute,
} from './lib/prerendered-answers.ts';
import { type DataRouter, RouterProvider } from './lib/router/index.ts';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html must contain <div id="root">');

/** Resolves once the router has loaded the first page's code and run its loaders. */
function routerReady(router: DataRouter): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe(() => {
      if (!router.state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * A page the server rendered (docs/decisions/011, 021) stays on screen until the app can
 * render the same: the page's code is loaded and its queries answered, from the answers
 * the server embedded, so the app's first render matches the server's markup.
 */
async function serverRenderedPageReady(router: DataRouter, queryClient: QueryClient) {
  const page = serverRenderedPages[window.location.pathname];
  await Promise.all([routerReady(router), page?.prefetch(queryClient)]);
}

/** Says, on the root element, that the app has taken over the server's page. */
function TakeOverServerRenderedPage({
  root,
  children,
}: {
  root: HTMLElement;
  children: ReactNode;
}) {
  useLayoutEffect(() => root.removeAttribute(serverRenderedAttribute), [root]);
  return children;
}

/**
 * Hydration went wrong: the server's markup differed from the app's first render, and
 * React rendered the page again. A console error, so the browser tests catch it.
 */
function reportHydrationProblem(error: unknown): void {
  console.error('The server-rendered page did not hydrate:', error);
}

async function start(root: HTMLElement) {
  rememberTimeZone();
  const isServerRendered = servePrerenderedAnswers();
  const queryClient = createQueryClient();
  // Every page shows who is signed in, the institution's name and whether this is a
  // sandbox: ask now, while the router still loads the page's code, instead of after it.
  const everyPageData = prefetchEveryPageData(queryClient);
  const router = createAppRouter(queryClient);
  if (isServerRendered)
    await Promise.all([everyPageData, serverRenderedPageReady(router, queryClient)]);

  const app = (
    <StrictMode>
      <TakeOverServerRenderedPage root={root}>
        <Providers queryClient={queryClient}>
          <RouterProvider router={router} />
        </Providers>
      </TakeOverServerRenderedPage>
    </StrictMode>
  );
  // The server wrote the page's dates for the language and time zone the browser told it;
  // if this browser shows them otherwise (its first visit, before the time zone cookie),
  // the page is rendered anew instead, with no mismatch to recover from.
  const isHydratable =
    isServerRendered && root.getAttribute(dateRegionAttribute) === dateRegionName();
  if (isHydratable) {
    hydrateRoot(root, app, { onRecoverableError: reportHydrationProblem });
    return;
  }
  // As a transition, the first render yields to the browser every few milliseconds instead
  // of holding the main thread for the whole page (on a slow phone, hundreds of them).
  startTransition(() => createRoot(root).render(app));
}

void start(rootElement);
