import { describe, expect, it } from 'vitest';
import { entryGroup, placeFirstScreen } from '../../chunk-groups.ts';

/** A module graph as the bundler's chunking context gives it, from `id → imports`. */
function graphOf(modules: Record<string, { imports?: string[]; lazy?: string[]; code?: string }>) {
  return {
    getModuleInfo(id: string) {
      const module = modules[id];
      if (!module) return null;
      return {
        id,
        code: module.code ?? '',
        importedIds: module.imports ?? [],
        dynamicallyImportedIds: module.lazy ?? [],
        importers: [],
        dynamicImporters: [],
      };
    },
  } as unknown as Parameters<typeof placeFirstScreen>[0];
}

const src = '/app/apps/web/src';
const mantine = '/app/node_modules/@mantine/core/esm';
const page = (feature: string, name: string) => `${src}/features/${feature}/pages/${name}.tsx`;

describe('placeFirstScreen', () => {
  const barrel = `${mantine}/index.mjs`;
  const fromMantine = (...names: string[]) =>
    `import { ${names.join(', ')} } from '@mantine/core';`;
  const graph = graphOf({
    [`${src}/main.tsx`]: {
      imports: [barrel],
      code: fromMantine('Box'),
      lazy: [
        `${src}/app/shell/shell-layout.tsx`,
        `${src}/app/public-layout.tsx`,
        page('wallet', 'dashboard-page'),
        page('transfers', 'transfer-page'),
        page('statements', 'statements-page'),
        page('landing', 'landing-page'),
      ],
    },
    [barrel]: {
      code: [
        `import { Box } from "./core/Box/Box.mjs";`,
        `import { Badge } from "./components/Badge/Badge.mjs";`,
        `import { Card, CardSection as Section } from "./components/Card/Card.mjs";`,
        `import { Table } from "./components/Table/Table.mjs";`,
      ].join('\n'),
      imports: [
        `${mantine}/core/Box/Box.mjs`,
        `${mantine}/components/Badge/Badge.mjs`,
        `${mantine}/components/Card/Card.mjs`,
        `${mantine}/components/Table/Table.mjs`,
      ],
    },
    [`${mantine}/core/Box/Box.mjs`]: {},
    [`${mantine}/components/Badge/Badge.mjs`]: { imports: [`${mantine}/core/Box/Box.mjs`] },
    [`${mantine}/components/Card/Card.mjs`]: { imports: [`${mantine}/core/Box/Box.mjs`] },
    [`${mantine}/components/Table/Table.mjs`]: {},
    [`${src}/app/shell/shell-layout.tsx`]: {
      imports: [barrel, `${src}/app/shell/nav.tsx`],
      code: fromMantine('Badge'),
    },
    [`${src}/app/shell/nav.tsx`]: {},
    [`${src}/app/public-layout.tsx`]: {},
    [page('landing', 'landing-page')]: { imports: [barrel], code: fromMantine('Card') },
    [page('wallet', 'dashboard-page')]: {
      imports: [barrel, `${src}/features/wallet/chart.tsx`, `${src}/components/widget.tsx`],
      code: fromMantine('Card'),
    },
    [`${src}/features/wallet/chart.tsx`]: {},
    [`${src}/components/widget.tsx`]: {},
    [page('transfers', 'transfer-page')]: {
      imports: [barrel, `${src}/components/widget.tsx`],
      code: fromMantine('Table'),
    },
    [page('statements', 'statements-page')]: { imports: [`${src}/components/widget.tsx`] },
  });
  const names = { shared: 'shared', signedIn: 'signed-in' };

  it('files what visitors also load apart from what only signed-in pages load', () => {
    const placement = placeFirstScreen(graph, `${src}/main.tsx`, names, 3);
    expect(Object.fromEntries(placement)).toEqual({
      // The frame's own modules, on every signed-in page.
      [`${src}/app/shell/nav.tsx`]: 'signed-in',
      [`${mantine}/components/Badge/Badge.mjs`]: 'signed-in',
      // The dashboard and two more pages.
      [`${src}/components/widget.tsx`]: 'signed-in',
      // The landing page uses it too.
      [`${mantine}/components/Card/Card.mjs`]: 'shared',
    });
  });

  it('leaves to the bundler what fewer pages use, the entry’s modules and other pages’ imports', () => {
    const placement = placeFirstScreen(graph, `${src}/main.tsx`, names, 4);
    expect(placement.get(`${src}/components/widget.tsx`)).toBeUndefined();
    expect(placement.get(`${src}/features/wallet/chart.tsx`)).toBeUndefined();
    expect(placement.get(`${mantine}/core/Box/Box.mjs`)).toBeUndefined();
    // Imported from the barrel by the transfer page only, not by the dashboard.
    expect(placement.get(`${mantine}/components/Table/Table.mjs`)).toBeUndefined();
  });
});

describe('entryGroup', () => {
  it('takes what the entry imports statically, and neither the entry nor lazily loaded code', () => {
    const graph = graphOf({
      [`${src}/main.tsx`]: {
        imports: [`${src}/lib/session.ts`, `${mantine}/index.mjs`],
        code: `import { Box } from '@mantine/core';`,
        lazy: [page('wallet', 'dashboard-page')],
      },
      [`${mantine}/index.mjs`]: {
        code: [
          `import { Box } from "./core/Box/Box.mjs";`,
          `import { Badge } from "./components/Badge/Badge.mjs";`,
        ].join('\n'),
        imports: [`${mantine}/core/Box/Box.mjs`, `${mantine}/components/Badge/Badge.mjs`],
      },
      [`${mantine}/core/Box/Box.mjs`]: {},
      [`${mantine}/components/Badge/Badge.mjs`]: {},
      [`${src}/lib/session.ts`]: { imports: [`${src}/lib/api-client.ts`] },
      [`${src}/lib/api-client.ts`]: {},
      [page('wallet', 'dashboard-page')]: { imports: [`${src}/features/wallet/chart.tsx`] },
      [`${src}/features/wallet/chart.tsx`]: {},
    });
    const group = entryGroup({ entryFile: `${src}/main.tsx`, name: 'app-common' });
    const nameOf = (id: string) => group.name(id, graph);
    expect(nameOf(`${src}/lib/session.ts`)).toBe('app-common');
    expect(nameOf(`${src}/lib/api-client.ts`)).toBe('app-common');
    expect(nameOf(`${mantine}/core/Box/Box.mjs`)).toBe('app-common');
    // Through the barrel, only what the entry names.
    expect(nameOf(`${mantine}/components/Badge/Badge.mjs`)).toBeNull();
    expect(nameOf(`${src}/main.tsx`)).toBeNull();
    expect(nameOf(`${src}/features/wallet/chart.tsx`)).toBeNull();
  });
});
