// A page shows words from its own feature's catalog and from the features whose parts it
// renders through their index.ts (docs/decisions/054): the dashboard shows the Quick Pay
// dialog of transfers/ and the notices of kyc/. The router loads those catalogs with the
// page's code, in parallel, so this plugin gives it, for each page module, the features
// its files reach — following the page's own imports file by file, not every file of its
// feature: the staff customer list shows none of the loans, cards or disputes words the
// customer page beside it does — and for the frame every page shares (app/, components/,
// lib/) the features it reaches. Read from the import statements.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

const virtualId = 'virtual:coffer/feature-dependencies';
const resolvedVirtualId = `\0${virtualId}`;
/**
 * What a module imports of another feature: its boundary, `…/features/<name>/index.ts`,
 * statically or on demand (`import('…/index.ts')`, as the dashboard loads Quick Pay).
 */
const featureImport = /(?:from |import\()'(?:\.\.\/)+(?:features\/)?([a-z-]+)\/index\.ts'/g;
/** The frame's name in the table: what every page loads. */
export const frameName = '';

function sourceFilesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\./.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function importedFeatures(files: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(featureImport)) {
      if (match[1]) names.add(match[1]);
    }
  }
  return names;
}

/** A relative import, static or on demand, or a re-export: `from './x.ts'`, `import('../y.ts')`. */
const relativeImport = /(?:from |import\()'(\.{1,2}\/[^']+\.tsx?)'/g;

/** The feature a source file belongs to: `…/src/features/cards/pages/x.tsx` → cards. */
function featureOfFile(srcDir: string, file: string): string | undefined {
  return /^features\/([a-z-]+)\//.exec(path.relative(srcDir, file).split(path.sep).join('/'))?.[1];
}

/** The features whose files `pageFile` reaches through its imports, its own included. */
function featuresReachedByPage(srcDir: string, pageFile: string): string[] {
  const visited = new Set<string>();
  const features = new Set<string>();
  const pending = [pageFile];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (visited.has(file)) continue;
    visited.add(file);
    const feature = featureOfFile(srcDir, file);
    if (feature) features.add(feature);
    for (const match of readFileSync(file, 'utf8').matchAll(relativeImport)) {
      const imported = path.resolve(path.dirname(file), match[1] ?? '');
      if (imported.startsWith(srcDir)) pending.push(imported);
    }
  }
  return [...features].sort();
}

/**
 * Each page module (by the build's manifest name, `src/features/x/pages/y.tsx`) with the
 * features whose words it shows, and the frame ('') with the features it reaches.
 */
export function pageFeatureDependencies(srcDir: string): Record<string, string[]> {
  const table: Record<string, string[]> = {
    [frameName]: featureDependencies(srcDir)[frameName] ?? [],
  };
  const featuresDir = path.join(srcDir, 'features');
  for (const feature of readdirSync(featuresDir)) {
    const pagesDir = path.join(featuresDir, feature, 'pages');
    if (!existsSync(pagesDir)) continue;
    for (const page of readdirSync(pagesDir).filter((name) => /\.tsx$/.test(name))) {
      const pageFile = path.join(pagesDir, page);
      table[`src/features/${feature}/pages/${page}`] = featuresReachedByPage(srcDir, pageFile);
    }
  }
  return table;
}

/** Each feature (and the frame) with every feature it reaches, itself included. */
export function featureDependencies(srcDir: string): Record<string, string[]> {
  const featuresDir = path.join(srcDir, 'features');
  const direct = new Map<string, Set<string>>();
  for (const name of readdirSync(featuresDir)) {
    direct.set(name, importedFeatures(sourceFilesUnder(path.join(featuresDir, name))));
  }
  const frameFiles = ['app', 'components', 'lib'].flatMap((dir) =>
    sourceFilesUnder(path.join(srcDir, dir)),
  );
  direct.set(frameName, importedFeatures(frameFiles));
  const table: Record<string, string[]> = {};
  for (const start of direct.keys()) {
    const reached = new Set<string>(start === frameName ? [] : [start]);
    const pending = [...(direct.get(start) ?? [])];
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      if (reached.has(name)) continue;
      reached.add(name);
      pending.push(...(direct.get(name) ?? []));
    }
    table[start] = [...reached].sort();
  }
  return table;
}

export function featureDependenciesModule(srcDir: string): Plugin {
  return {
    name: 'coffer-feature-dependencies',
    resolveId: (id) => (id === virtualId ? resolvedVirtualId : undefined),
    load(id) {
      if (id !== resolvedVirtualId) return undefined;
      return `export default ${JSON.stringify(pageFeatureDependencies(srcDir))};`;
    },
  };
}
