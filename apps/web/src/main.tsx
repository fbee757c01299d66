import './app/mantine-styles.css';
import './app/theme-variables.css';
import { i18n } from '@lingui/core';
import type { QueryClient } from '@tanstack/react-query';
import { type ReactNode, StrictMode, startTransition, useLayoutEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { DataRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { prefetchEveryPageData, serverRenderedPageAt } from './app/page-data.ts';
import { Providers } from './app/providers.tsx';
import { createQueryClient } from './app/query-client.ts';
import { createAppRouter } from './app/router.tsx';
import { dateRegionName, rememberTimeZone } from './lib/dates.ts';
import {
  activateLanguage,
  documentLanguage,
  loadContractWordsAtFirstInput,
  reportMissingWords,
} from './lib/i18n.ts';
import {
  dateRegionAttribute,
  inputBeforeStartAttribute,
  servePrerenderedAnswers,
  serverRenderedAttribute,
} from './lib/prerendered-answers.ts';
import { setHydratingServerPage } from './lib/use-is-phone.ts';

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
  const url = new URL(window.location.href);
  const rendered = serverRenderedPageAt(url.pathname);
  await Promise.all([
    routerReady(router),
    rendered?.page.prefetch(queryClient, url, rendered.params),
  ]);
}

const pageTakenOverMark = 'coffer-page-taken-over';

/**
 * Says, on the root element, that the app has taken over the server's page, and lets the
 * person use it (public/app-start.js made it inert until now).
 */
function TakeOverServerRenderedPage({
  root,
  children,
}: {
  root: HTMLElement;
  children: ReactNode;
}) {
  useLayoutEffect(() => {
    root.removeAttribute(serverRenderedAttribute);
    root.removeAttribute('inert');
    setHydratingServerPage(false);
    // When the page became usable, for DevTools and bench/api/web-trace.ts.
    performance.mark(pageTakenOverMark);
  }, [root]);
  return children;
}

/**
 * Hydration went wrong: the server's markup differed from the app's first render, and
 * React rendered the page again. A console error, so the browser tests catch it.
 */
function reportHydrationProblem(error: unknown): void {
  console.error('The server-rendered page did not hydrate:', error);
}

/** Lets the browser paint and answer input before the next piece of start-up work. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function start(root: HTMLElement) {
  const isServerRendered = servePrerenderedAnswers();
  const queryClient = createQueryClient();
  // Every page shows who is signed in, the institution's name and whether this is a
  // sandbox: ask now, while the router still loads the page's code, instead of after it.
  const everyPageData = prefetchEveryPageData(queryClient);
  // In the language the server wrote the page in (the visitor's choice or the browser's);
  // the router loads the first page's words in it meanwhile.
  const frameWords = activateLanguage(documentLanguage());
  loadContractWordsAtFirstInput();
  reportMissingWords();
  // This task evaluated the entry and decodes the answers above (in its microtasks). Making
  // the router (ranking every route, reading the address) and the browser's first date
  // format (loading its time zone data) wait for tasks of their own keeps each of the three
  // short enough not to hold up a tap: together they were one task of 23–32 ms of CPU
  // (docs/decisions/031).
  await nextTask();
  const router = createAppRouter(queryClient);
  await nextTask();
  rememberTimeZone();
  await frameWords;
  if (isServerRendered)
    await Promise.all([everyPageData, serverRenderedPageReady(router, queryClient)]);

  const app = (
    <StrictMode>
      <TakeOverServerRenderedPage root={root}>
        <Providers queryClient={queryClient} i18n={i18n}>
          <RouterProvider router={router} />
        </Providers>
      </TakeOverServerRenderedPage>
    </StrictMode>
  );
  // The server wrote the page's dates for the language and time zone the browser told it;
  // if this browser shows them otherwise (its first visit, before the time zone cookie),
  // the page is rendered anew instead, with no mismatch to recover from.
  // A visitor's form shows no dates and may hold what they typed already: always hydrated,
  // since rendering anew would replace the fields and lose it (docs/decisions/056).
  const isHydratable =
    isServerRendered &&
    (root.hasAttribute(inputBeforeStartAttribute) ||
      root.getAttribute(dateRegionAttribute) === dateRegionName());
  // Hydration as a transition too: it yields to the browser between pieces of work instead
  // of one long task (dashboard, 4x CPU slowdown: total blocking time 430 → 220 ms). A tap
  // on a part not yet hydrated makes React finish hydrating at once and then handle it.
  if (isHydratable) {
    setHydratingServerPage(true);
    startTransition(() => {
      hydrateRoot(root, app, { onRecoverableError: reportHydrationProblem });
    });
    return;
  }
  // As a transition, for the same reason: on a slow phone the first render takes hundreds
  // of milliseconds.
  startTransition(() => createRoot(root).render(app));
}

void start(rootElement);
