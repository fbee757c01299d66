// How the browser build files the code of the signed-in frame and the dashboard
// (docs/decisions/030). Left to the bundler, what the dashboard's first load needed beyond
// the entry was cut by which of the app's lazily loaded modules (pages, dialogs, menus)
// import each piece: 47 files of under 2 KB, each paying gzip's fresh start (30.6 KB
// gzipped one by one, 20.0 KB as one file). Here the modules the frame and the dashboard
// import statically go into two files, by which pages use them on their first load.
import path from 'node:path';
import type { Rolldown } from 'vite';

type ChunkingContext = Rolldown.ChunkingContext;

/**
 * The app's entry and the modules the router loads on demand (router.tsx `lazyPage`): each
 * keeps a chunk of its own, which the server links by name from the build's manifest.
 */
const routeModule =
  /[\\/](app[\\/]public-layout|app[\\/]shell[\\/]shell-layout|features[\\/][^\\/]+[\\/]pages[\\/][^\\/]+)\.tsx$/;
const entryModule = /[\\/]src[\\/]main\.tsx$/;
export const isOwnChunkModule = (moduleId: string) =>
  entryModule.test(moduleId) || routeModule.test(moduleId) || moduleId.endsWith('.html');

const shellLayoutModule = /[\\/]app[\\/]shell[\\/]shell-layout\.tsx$/;
const dashboardPageModule = /[\\/]features[\\/]wallet[\\/]pages[\\/]dashboard-page\.tsx$/;
/** Visitors' pages: the public frame and the pages in it. */
const publicRouteModule =
  /[\\/](app[\\/]public-layout|features[\\/](landing|about|auth|dev-mail)[\\/]pages[\\/][^\\/]+)\.tsx$/;

/**
 * Libraries whose entry re-exports hundreds of modules (Mantine's packages, lucide's icons).
 * The module graph says an importer of one imports all of them; the bundler keeps only
 * those it names.
 */
const barrelModule =
  /[\\/]node_modules[\\/](@mantine[\\/][^\\/]+[\\/]esm[\\/]index\.mjs|lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs)$/;
/** In a barrel: `import { A } from './a.mjs'` or `export { default as A } from './a.mjs'`. */
const barrelReexport = /(?:import|export)\s*\{([^}]*)\}\s*from\s*["'](\.{1,2}\/[^"']+)["']/g;
/** In an importer: `import { A, B as C } from 'package'`. */
const packageImport = /import\s*\{([^}]*)\}\s*from\s*["']([^."'][^"']*)["']/g;

/** The names of an import or export list: `a, b as c` → `[a, b]` (`bound`: `[a, c]`). */
function namesOf(list: string, side: 'imported' | 'bound'): string[] {
  return list
    .split(',')
    .map((part) => part.trim().replace(/^type\s+/, ''))
    .filter((part) => part !== '')
    .map((part) => {
      const [name = '', alias] = part.split(/\s+as\s+/);
      return side === 'bound' ? (alias ?? name) : name;
    });
}

/**
 * The modules a module imports statically, a barrel replaced by the modules of the names
 * imported from it (`import { Badge } from '@mantine/core'` → Badge.mjs).
 */
function staticImports(ctx: ChunkingContext): (moduleId: string) => string[] {
  const barrels = new Map<string, Map<string, string>>();
  const modulesOfBarrel = (barrelId: string) => {
    let modules = barrels.get(barrelId);
    if (modules) return modules;
    modules = new Map();
    const code = ctx.getModuleInfo(barrelId)?.code ?? '';
    for (const [, list = '', source = ''] of code.matchAll(barrelReexport)) {
      const moduleId = path.resolve(path.dirname(barrelId), source);
      for (const name of namesOf(list, 'bound')) modules.set(name, moduleId);
    }
    barrels.set(barrelId, modules);
    return modules;
  };
  return (moduleId) => {
    const info = ctx.getModuleInfo(moduleId);
    if (!info) return [];
    const importedBarrels = info.importedIds.filter((id) => barrelModule.test(id));
    if (importedBarrels.length === 0) return info.importedIds;
    const imports = info.importedIds.filter((id) => !barrelModule.test(id));
    const names = [...(info.code ?? '').matchAll(packageImport)].flatMap(([, list = '']) =>
      namesOf(list, 'imported'),
    );
    for (const barrelId of importedBarrels) {
      const modules = modulesOfBarrel(barrelId);
      for (const name of names) {
        const imported = modules.get(name);
        if (imported) imports.push(imported);
      }
    }
    return imports;
  };
}

/** A module with everything it imports statically, directly or not (`staticImports`). */
function staticClosureOf(ctx: ChunkingContext): (rootId: string) => Set<string> {
  const importsOf = staticImports(ctx);
  return (rootId) => {
    const closure = new Set<string>();
    const todo = [rootId];
    while (todo.length > 0) {
      const id = todo.pop() as string;
      if (closure.has(id)) continue;
      closure.add(id);
      todo.push(...importsOf(id));
    }
    return closure;
  };
}

/**
 * Which group each module of the dashboard's first load goes into, beyond the entry's:
 * what visitors' pages also import (`shared`), and what at least `minSignedInPages`
 * signed-in pages import on their first load (`signedIn`: the frame and the widgets many
 * pages show). The rest (the dashboard's own charts, what two pages share) stays where the
 * bundler puts it, so other pages do not download it.
 *
 * A module's imports are in its own group, in `shared`, in the entry's chunk or in the
 * libraries' (vendor-core), because whatever imports a module is used by no more pages
 * than it: `signedIn` imports `shared`, both import the entry, and nothing imports back.
 */
export function placeFirstScreen(
  ctx: ChunkingContext,
  entryId: string,
  names: { shared: string; signedIn: string },
  minSignedInPages: number,
): Map<string, string> {
  const staticClosure = staticClosureOf(ctx);
  // Every module of the app, from the entry through static and dynamic imports.
  const appModules = new Set<string>();
  const todo = [entryId];
  while (todo.length > 0) {
    const id = todo.pop() as string;
    if (appModules.has(id)) continue;
    appModules.add(id);
    const info = ctx.getModuleInfo(id);
    if (info) todo.push(...info.importedIds, ...info.dynamicallyImportedIds);
  }
  const routeIds = [...appModules].filter((id) => routeModule.test(id));
  const findRoute = (pattern: RegExp) => {
    const id = routeIds.find((candidate) => pattern.test(candidate));
    if (!id) throw new Error(`chunk-groups.ts: no route module matches ${pattern}`);
    return id;
  };
  const shellClosure = staticClosure(findRoute(shellLayoutModule));
  const signedInPageIds = routeIds.filter(
    (id) => !publicRouteModule.test(id) && !shellLayoutModule.test(id),
  );
  const publicUse = new Set(
    routeIds.filter((id) => publicRouteModule.test(id)).flatMap((id) => [...staticClosure(id)]),
  );
  // How many signed-in pages load a module first; the frame's modules, all of them.
  const signedInPageCount = new Map<string, number>();
  for (const pageId of signedInPageIds)
    for (const id of staticClosure(pageId))
      signedInPageCount.set(id, (signedInPageCount.get(id) ?? 0) + 1);
  for (const id of shellClosure) signedInPageCount.set(id, signedInPageIds.length);

  const entryClosure = staticClosure(entryId);
  const placement = new Map<string, string>();
  for (const id of [...shellClosure, ...staticClosure(findRoute(dashboardPageModule))]) {
    if (entryClosure.has(id) || isOwnChunkModule(id)) continue;
    if (publicUse.has(id)) placement.set(id, names.shared);
    else if ((signedInPageCount.get(id) ?? 0) >= minSignedInPages)
      placement.set(id, names.signedIn);
  }
  return placement;
}

/**
 * A `codeSplitting` group for the dashboard's first load (`placeFirstScreen`). It comes
 * after the libraries' group: a module that group takes is not offered to this one.
 */
export function firstScreenGroup(options: {
  entryFile: string;
  names: { shared: string; signedIn: string };
  minSignedInPages: number;
}) {
  let placement: Map<string, string> | undefined;
  return {
    // Each group already holds its modules' imports but the entry's and the libraries'; the
    // bundler's default would also pull the entry's own modules out of it into the group.
    includeDependenciesRecursively: false,
    name: (moduleId: string, ctx: ChunkingContext) => {
      placement ??= placeFirstScreen(
        ctx,
        options.entryFile,
        options.names,
        options.minSignedInPages,
      );
      return placement.get(moduleId) ?? null;
    },
  };
}

/**
 * A `codeSplitting` group: what the entry imports statically (Mantine's core and provider,
 * the route table, the API client, the session, the contracts every page reads), which
 * every page runs, in one file; the entry's own chunk keeps `main.tsx` alone. The group
 * used to take what at least 30 lazily loaded modules share, which held the same modules
 * until one more module loaded on demand tipped Mantine's form (10 KB gzipped) into every
 * page's first load.
 */
export function entryGroup(options: { entryFile: string; name: string }) {
  let entryClosure: Set<string> | undefined;
  return {
    name: (moduleId: string, ctx: ChunkingContext) => {
      entryClosure ??= staticClosureOf(ctx)(options.entryFile);
      return !isOwnChunkModule(moduleId) && entryClosure.has(moduleId) ? options.name : null;
    },
  };
}
