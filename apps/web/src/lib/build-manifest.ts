// The client build's `.vite/manifest.json`: which files hold a source module's code and
// styles, and which chunks each imports. The server reads it to link a rendered page's code
// (app-server.tsx); the build reads it to weigh each page (app/page-budgets.ts).

/** One entry of the manifest, keyed by source path (or `_name.js` for a shared chunk). */
export type ManifestChunk = { file: string; css?: string[]; imports?: string[] };
export type BuildManifest = Record<string, ManifestChunk>;

/** The app's entry in the manifest: index.html's module script. */
export const entryManifestKey = 'index.html';

/**
 * The chunks a page loads before it can run: the app's entry and the page's lazily loaded
 * route modules, each with every chunk it imports statically. Each chunk once, entry first.
 */
export function firstLoadChunks(
  manifest: BuildManifest,
  routeModules: readonly string[],
): ManifestChunk[] {
  const chunks = new Map<string, ManifestChunk>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the build's manifest has no ${key}`);
    if (chunks.has(chunk.file)) return;
    chunks.set(chunk.file, chunk);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of [entryManifestKey, ...routeModules]) visit(key);
  return [...chunks.values()];
}

/**
 * The chunks the entry imports statically, each after everything it imports: the order in
 * which the browser evaluates them when it runs the entry (depth first, in import order).
 * public/app-start.js evaluates them in this order, one task each, before the entry.
 */
export function entryDependenciesInEvaluationOrder(manifest: BuildManifest): string[] {
  const files: string[] = [];
  const visited = new Set<string>();
  const visit = (key: string) => {
    if (visited.has(key)) return;
    visited.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the build's manifest has no ${key}`);
    for (const imported of chunk.imports ?? []) visit(imported);
    if (key !== entryManifestKey) files.push(chunk.file);
  };
  visit(entryManifestKey);
  return files;
}
