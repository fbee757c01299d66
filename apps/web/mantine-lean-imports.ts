// A build step for the browser: two Mantine components import a whole library for one
// small thing, and every signed-in page pays for it on its first load.
// - The AppShell's header reads only the class name react-remove-scroll gives fixed
//   elements (4 KB gzipped of scroll locking the shell never does itself);
// - ScrollArea (behind every Mantine Table) only merges refs with Floating UI's
//   `useMergeRefs`, which brings all of Floating UI (12 KB gzipped).
// Those imports get stand-ins with the same behaviour. A dialog or popover that needs the
// real libraries still imports them, and loads them with its own code.
import type { Plugin } from 'vite';

type StandIn = { importer: RegExp; source: string; code: string };

const standIns: readonly StandIn[] = [
  {
    importer: /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]AppShell[\\/]/,
    source: 'react-remove-scroll',
    // react-remove-scroll-bar's constants: the real library styles the same class while a
    // dialog locks the page's scrolling.
    code: `export const RemoveScroll = { classNames: { zeroRight: 'right-scroll-bar-position', fullWidth: 'width-before-scroll-bar' } };`,
  },
  {
    importer: /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/,
    source: '@floating-ui/react',
    // Floating UI takes the refs as one array; Mantine's own hook takes them as arguments.
    code: [
      `import { useMergedRef } from '@mantine/hooks';`,
      'export const useMergeRefs = (refs) => useMergedRef(...refs);',
    ].join('\n'),
  },
];

const virtualPrefix = '\0coffer-mantine-lean:';

export function mantineLeanImports(): Plugin {
  return {
    name: 'coffer-mantine-lean-imports',
    // Before Vite's own resolver, which would find the real package.
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
      return standIns[Number(id.slice(virtualPrefix.length))]?.code ?? null;
    },
  };
}
