// A build step: fails the browser's build when the app's code uses a Mantine class that no
// stylesheet the app loads defines. The app links Mantine's styles per component
// (src/app/mantine-styles.css, docs/decisions/031), so a component used for the first time
// would otherwise arrive unstyled, and nothing else would notice.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

/** Mantine's generated class names: `m_` and a hash of eight hexadecimal digits or fewer. */
const mantineClassPattern = /\bm_[0-9a-f]{6,8}\b/g;

type MantineStylesheet = { name: string; classes: Set<string> };

/** Every Mantine stylesheet the app could load, with the classes each defines. */
export function mantineStylesheets(): MantineStylesheet[] {
  const require = createRequire(import.meta.url);
  const coreStylesDir = require
    .resolve('@mantine/core/styles.css')
    .replace(/styles\.css$/, 'styles/');
  const names = [
    ...readdirSync(coreStylesDir)
      .filter((name) => name.endsWith('.css') && !name.endsWith('.layer.css'))
      .map((name) => `@mantine/core/styles/${name}`),
    '@mantine/notifications/styles.css',
  ];
  return names.map((name) => ({
    name,
    classes: new Set(readFileSync(require.resolve(name), 'utf8').match(mantineClassPattern)),
  }));
}

type OutputChunkLike = {
  type: 'chunk';
  code: string;
  imports: string[];
  dynamicImports: string[];
  viteMetadata?: { importedCss: Set<string> };
};
type OutputAssetLike = { type: 'asset'; source: string | Uint8Array };

/**
 * The Mantine classes the code reachable from `entryFileName` uses that none of that code's
 * stylesheets define, with the Mantine stylesheet that would.
 */
export function missingMantineStyles(
  bundle: Record<string, OutputChunkLike | OutputAssetLike>,
  entryFileName: string,
  stylesheets: readonly MantineStylesheet[],
): { className: string; stylesheet: string }[] {
  const known = new Map<string, string>();
  for (const sheet of stylesheets) {
    for (const className of sheet.classes)
      if (!known.has(className)) known.set(className, sheet.name);
  }
  const used = new Set<string>();
  const defined = new Set<string>();
  const visited = new Set<string>();
  const visit = (fileName: string) => {
    if (visited.has(fileName)) return;
    visited.add(fileName);
    const chunk = bundle[fileName];
    if (chunk?.type !== 'chunk') return;
    for (const className of chunk.code.match(mantineClassPattern) ?? []) {
      if (known.has(className)) used.add(className);
    }
    for (const cssFile of chunk.viteMetadata?.importedCss ?? []) {
      const asset = bundle[cssFile];
      if (asset?.type !== 'asset') continue;
      const css =
        typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
      for (const className of css.match(mantineClassPattern) ?? []) defined.add(className);
    }
    for (const imported of [...chunk.imports, ...chunk.dynamicImports]) visit(imported);
  };
  visit(entryFileName);
  return [...used]
    .filter((className) => !defined.has(className))
    .sort()
    .map((className) => ({ className, stylesheet: known.get(className) ?? '?' }));
}

export function mantineStylesCheck(): Plugin {
  return {
    name: 'coffer-mantine-styles-check',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    generateBundle(_options, bundle) {
      const stylesheets = mantineStylesheets();
      // The app's entry (index.html's module); the landing page imports its own styles.
      const entry = Object.values(bundle).find(
        (output) => output.type === 'chunk' && output.isEntry && output.name === 'main',
      );
      if (!entry) this.error('mantine-styles-check: the build has no `main` entry');
      const missing = missingMantineStyles(
        bundle as unknown as Record<string, OutputChunkLike | OutputAssetLike>,
        entry.fileName,
        stylesheets,
      );
      if (missing.length === 0) return;
      const files = [...new Set(missing.map((item) => item.stylesheet))];
      this.error(
        `the app uses Mantine classes no stylesheet it loads defines (${missing
          .map((item) => item.className)
          .join(', ')}): import ${files.join(', ')} in src/app/mantine-styles.css`,
      );
    },
  };
}
