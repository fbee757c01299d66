// A build step for the browser: zod's classic schemas import its JSON Schema generator for
// `.toJSONSchema()` and the `.minLength`-style getters, none of which the web app calls.
// Those two modules are a fifth of zod's code on every page's first load, so the browser
// build gets stand-ins with the same export names. zod calls some of them while it builds
// a schema (`~standard` makes its JSON Schema methods up front), so each stand-in returns
// a function that throws, and only generating JSON Schema fails.
// The server, which generates JSON Schema for its routes, keeps the real ones.
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

const replacedModulePattern =
  /[\\/]zod[\\/]v4[\\/]core[\\/](json-schema-processors|to-json-schema)\.js$/;

function exportedNames(source: string): string[] {
  const declared = [...source.matchAll(/^export (?:const|function|let|class) (\w+)/gm)];
  const listed = [...source.matchAll(/^export \{([^}]*)\}/gm)].flatMap(([, names = '']) =>
    names.split(',').map(
      (name) =>
        name
          .trim()
          .split(/\s+as\s+/)
          .at(-1) ?? '',
    ),
  );
  return [...new Set([...declared.map(([, name]) => name ?? ''), ...listed])].filter(Boolean);
}

export function zodWithoutJsonSchema(): Plugin {
  return {
    name: 'coffer-zod-without-json-schema',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    load(id) {
      if (!replacedModulePattern.test(id)) return null;
      const names = exportedNames(readFileSync(id, 'utf8'));
      return [
        'function unavailable() {',
        "  throw new Error('zod JSON Schema is not part of the browser build (zod-without-json-schema.ts)');",
        '}',
        ...names.map((name) => `export const ${name} = () => unavailable;`),
      ].join('\n');
    },
  };
}
