import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { developmentCodeIn, developmentOnlyMarkers } from '../production-builds.ts';

const packageDir = path.dirname(
  createRequire(import.meta.url).resolve('react-router/package.json'),
);

type ExportTarget = string | { [condition: string]: ExportTarget };

/** The file an `exports` entry gives under `conditions`, in the entry's own order. */
function exportedFile(target: ExportTarget, conditions: readonly string[]): string | undefined {
  if (typeof target === 'string') return target;
  for (const [condition, inner] of Object.entries(target)) {
    if (condition === 'default' || conditions.includes(condition)) {
      const file = exportedFile(inner, conditions);
      if (file) return file;
    }
  }
  return undefined;
}

/** Every module file under `dir`, as the build's check sees a chunk. */
const moduleFilesIn = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.m?js$/.test(name))
    .map((fileName) => ({ fileName, code: readFileSync(path.join(dir, fileName), 'utf8') }));

describe("React Router's production build", () => {
  const { exports } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));

  it('is what its package gives a production build for the browser, and development otherwise', () => {
    // Vite's conditions for a production build of the client: `development|production`
    // becomes `production`; `vite` (serve) sets `development` (ADR 028 found v7 giving
    // dist/development either way).
    const browserBuild = ['module', 'browser', 'production', 'import'];
    for (const entry of ['.', './dom']) {
      expect(exportedFile(exports[entry], browserBuild)).toMatch(/^\.\/dist\/production\//);
      expect(exportedFile(exports[entry], ['development', ...browserBuild])).toMatch(
        /^\.\/dist\/development\//,
      );
    }
  });

  it("is told from the development build by the warnings the build's check looks for", () => {
    expect(developmentCodeIn(moduleFilesIn(path.join(packageDir, 'dist/production')))).toEqual([]);
    const found = developmentCodeIn(moduleFilesIn(path.join(packageDir, 'dist/development')));
    for (const marker of developmentOnlyMarkers) {
      expect(found.some((line) => line.endsWith(marker))).toBe(true);
    }
    expect(developmentCodeIn([{ fileName: 'vendor-core.js', code: 'return 1' }])).toEqual([]);
  });
});
