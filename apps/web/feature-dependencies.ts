// A page shows words from its own feature's catalog and from the features whose parts it
// renders through their index.ts (docs/decisions/054): the dashboard shows the Quick Pay
// dialog of transfers/ and the notices of kyc/. The router loads all of those catalogs
// with the page's code, in parallel, so this plugin gives it, for each feature and for the
// frame every page shares (app/, components/, lib/), the features it reaches, read from
// the import statements.
import { readdirSync, readFileSync } from 'node:fs';
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
      return `export default ${JSON.stringify(featureDependencies(srcDir))};`;
    },
  };
}
