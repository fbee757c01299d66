import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/providers.tsx';
import { createQueryClient } from './app/query-client.ts';
import { createAppRouter } from './app/router.tsx';
import { healthQueryOptions } from './lib/health.ts';
import { meQueryOptions } from './lib/session.ts';
import { siteQueryOptions } from './lib/site.ts';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html must contain <div id="root">');

const queryClient = createQueryClient();
// Every page shows who is signed in, the institution's name and whether this is a
// sandbox: ask now, while the router still loads the page's code, instead of after it.
void queryClient.prefetchQuery(meQueryOptions);
void queryClient.prefetchQuery(siteQueryOptions);
void queryClient.prefetchQuery(healthQueryOptions);
const router = createAppRouter(queryClient);

// As a transition, the first render yields to the browser every few milliseconds instead
// of holding the main thread for the whole page (on a slow phone, hundreds of them).
startTransition(() => {
  createRoot(rootElement).render(
    <StrictMode>
      <Providers queryClient={queryClient}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
});
