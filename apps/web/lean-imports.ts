// A build step for the browser: a few imports bring a whole library, or all of its data,
// for one small thing, and every signed-in page pays for it on its first load. Those
// imports get stand-ins that do the same for what the importer uses:
// - ScrollArea (behind every Mantine Table) only merges refs with Floating UI's
//   `useMergeRefs`, which brings all of Floating UI (12 KB gzipped);
// - Table.ScrollContainer imports ScrollArea (5 KB gzipped) for its default `scrollarea`
//   type; the app's tables all scroll natively (`type="native"`, Mantine's own overflow),
//   so it never renders one, and the stand-in fails loudly if a table ever asks for it;
// - NavLink imports Collapse (with Mantine's collapse hooks) and the Accordion's chevron for
//   links with nested links; the app's side menu has none, so neither ever renders, and the
//   stand-ins fail loudly if a NavLink is ever given children (1.5 KB gzipped on every
//   signed-in page);
// - Button and ActionIcon slide their loader in with Transition (1.3 KB gzipped with its
//   hooks, on every page with a button); the stand-in shows the loader at once, as Mantine's
//   own Transition does under reduced motion or a zero duration. Menus, popovers and
//   dialogs, loaded on demand, keep the real one;
// - MantineProvider writes the theme's CSS variables and its hiddenFrom/visibleFrom classes
//   as <style> elements worked out on every render; the app has them in a stylesheet
//   (theme-variables.css) and turns both off, so the stand-ins fail loudly if a provider
//   ever renders them;
// - the currencies contract reads only each currency's code and minor digits from
//   currency-codes, which also lists every currency's name and countries (4 KB gzipped).
// A dialog or popover that needs the real libraries still imports them, with its own code;
// the server keeps the real ones.
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

type StandIn = { importer: RegExp; source: string; code: () => string };

const standIns: readonly StandIn[] = [
  {
    importer: /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/,
    source: '@floating-ui/react',
    // Floating UI takes the refs as one array; Mantine's own hook takes them as arguments.
    code: () =>
      [
        `import { useMergedRef } from '@mantine/hooks';`,
        'export const useMergeRefs = (refs) => useMergedRef(...refs);',
      ].join('\n'),
  },
  {
    importer:
      /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]Table[\\/]TableScrollContainer\.mjs$/,
    source: '../ScrollArea/ScrollArea.mjs',
    code: () =>
      [
        'export function ScrollArea() {',
        `  throw new Error('Table.ScrollContainer needs type="native" in the browser build (lean-imports.ts)');`,
        '}',
      ].join('\n'),
  },
  ...(['../Collapse/Collapse.mjs', '../Accordion/AccordionChevron.mjs'] as const).map(
    (source): StandIn => ({
      importer: /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]NavLink[\\/]NavLink\.mjs$/,
      source,
      code: () => {
        const name = source.includes('Collapse') ? 'Collapse' : 'AccordionChevron';
        return [
          `export function ${name}() {`,
          `  throw new Error('NavLink with nested links needs the real ${name} in the browser build (lean-imports.ts)');`,
          '}',
        ].join('\n');
      },
    }),
  ),
  {
    importer:
      /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](Button[\\/]Button|ActionIcon[\\/]ActionIcon)\.mjs$/,
    source: '../Transition/Transition.mjs',
    // Mantine's Transition without motion: the children with no transition styles, or nothing.
    code: () =>
      'export function Transition({ mounted, children }) { return mounted ? children({}) : null; }',
  },
  // The provider's <style> elements, which the app takes from theme-variables.css instead
  // (providers.tsx turns both off): their code, and the default theme's variables that
  // Mantine works out when the module loads, leave every page.
  ...(
    [
      ['./MantineCssVariables/MantineCssVariables.mjs', 'MantineCssVariables', 'withCssVariables'],
      ['./MantineClasses/MantineClasses.mjs', 'MantineClasses', 'withGlobalClasses'],
    ] as const
  ).map(
    ([source, name, setting]): StandIn => ({
      importer:
        /[\\/]@mantine[\\/]core[\\/]esm[\\/]core[\\/]MantineProvider[\\/]MantineProvider\.mjs$/,
      source,
      code: () =>
        [
          `export function ${name}() {`,
          `  throw new Error('MantineProvider needs ${setting}={false} in the browser build (lean-imports.ts, theme-variables.css)');`,
          '}',
        ].join('\n'),
    }),
  ),
  {
    importer: /[\\/]packages[\\/]contracts[\\/]src[\\/]currencies\.ts$/,
    source: 'currency-codes',
    // The same list, read from the library at build time, with only what the contract uses.
    code: () => {
      const { data }: { data: { code: string; digits: number }[] } = createRequire(import.meta.url)(
        'currency-codes',
      );
      const entries = data.map(({ code, digits }) => ({ code, digits }));
      return `export default { data: ${JSON.stringify(entries)} };`;
    },
  },
];

const virtualPrefix = '\0coffer-lean-import:';

export function leanImports(): Plugin {
  return {
    name: 'coffer-lean-imports',
    // Before Vite's own resolver, which would find the real packages.
    enforce: 'pre',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    resolveId(source, importer) {
      const index = standIns.findIndex(
        (standIn) => standIn.source === source && importer && standIn.importer.test(importer),
      );
      return index === -1 ? null : `${virtualPrefix}${index}`;
    },
    load(id) {
      if (!id.startsWith(virtualPrefix)) return null;
      return standIns[Number(id.slice(virtualPrefix.length))]?.code() ?? null;
    },
  };
}
