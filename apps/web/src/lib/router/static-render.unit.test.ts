// What the server renders for an address (and the browser hydrates): layouts around the
// page through Outlet, the address's parameters and search, links as real hrefs, and the
// error route in place of a route whose code failed to load.
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  createStaticRouter,
  Link,
  Outlet,
  type RouteObject,
  StaticRouterProvider,
  useParams,
  useSearchParams,
} from './index.ts';

function Layout() {
  return h('main', null, h('h1', null, 'Frame'), h(Outlet));
}

function CustomerPage() {
  const { userId } = useParams();
  const [searchParams] = useSearchParams();
  return h(
    'section',
    null,
    `Customer ${userId} on tab ${searchParams.get('tab')} `,
    h(Link, { to: '?tab=notes' }, 'Notes'),
  );
}

const routes: RouteObject[] = [
  {
    element: h(Layout),
    errorElement: h('p', null, 'Something went wrong'),
    children: [
      { path: 'users/:userId', lazy: async () => ({ Component: CustomerPage }) },
      {
        path: 'broken',
        lazy: async () => {
          throw new Error('the chunk did not load');
        },
      },
    ],
  },
];

async function render(path: string): Promise<string> {
  const router = await createStaticRouter(routes, path);
  return renderToString(h(StaticRouterProvider, { router }));
}

describe('the server render', () => {
  it('renders the loaded page inside its layout, with its parameters, search and links', async () => {
    const html = await render('/Users/42?tab=cards');
    expect(html).toBe(
      '<main><h1>Frame</h1><section>Customer 42 on tab cards <a href="/Users/42?tab=notes">Notes</a></section></main>',
    );
  });

  it('shows the error route instead of a route whose code failed to load', async () => {
    const html = await render('/broken');
    expect(html).toBe('<p>Something went wrong</p>');
  });
});
