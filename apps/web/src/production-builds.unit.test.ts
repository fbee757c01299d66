import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  developmentCodeIn,
  developmentOnlyMarkers,
  productionBuilds,
} from '../production-builds.ts';

/** The file the build takes for `source`, as the plugin resolves it. */
function resolvedByBuild(source: string): string {
  const { resolveId } = productionBuilds();
  if (typeof resolveId !== 'function') throw new Error('productionBuilds has no resolveId');
  const resolved = resolveId.call({} as never, source, undefined, {} as never);
  if (typeof resolved !== 'string') throw new Error(`productionBuilds did not resolve ${source}`);
  return resolved;
}

const asChunk = (fileName: string) => ({ fileName, code: readFileSync(fileName, 'utf8') });

describe("React Router's production build", () => {
  it("is not what the package's exports give a bundler (ADR 028 found it bundled)", () => {
    // Node's resolution stands for Vite's here: every condition of react-router@7 names
    // dist/development.
    const exported = createRequire(import.meta.url).resolve('react-router');
    expect(exported).toMatch(/[\\/]dist[\\/]development[\\/]/);
  });

  it('is what the build takes for react-router and react-router/dom', () => {
    for (const source of ['react-router', 'react-router/dom']) {
      expect(resolvedByBuild(source)).toMatch(/[\\/]react-router[\\/]dist[\\/]production[\\/]/);
    }
    expect(readFileSync(resolvedByBuild('react-router'), 'utf8')).not.toContain(
      'ENABLE_DEV_WARNINGS = true',
    );
  });

  it("looks in the built files for warnings React Router's development build prints", () => {
    // The production build's source still has them, behind `if (ENABLE_DEV_WARNINGS)`,
    // which the minifier drops; the development build keeps them.
    const moduleFilesIn = (dir: string) =>
      readdirSync(dir)
        .filter((name) => name.endsWith('.mjs'))
        .map((name) => asChunk(path.join(dir, name)));
    const production = moduleFilesIn(path.dirname(resolvedByBuild('react-router')));
    expect(production.some(({ code }) => code.includes('ENABLE_DEV_WARNINGS = false'))).toBe(true);
    const developmentChunks = moduleFilesIn(
      path.dirname(createRequire(import.meta.url).resolve('react-router')),
    );
    const found = developmentCodeIn(developmentChunks);
    for (const marker of developmentOnlyMarkers) {
      expect(found.some((line) => line.endsWith(marker))).toBe(true);
    }
    expect(developmentCodeIn([{ fileName: 'vendor-core.js', code: 'return 1' }])).toEqual([]);
  });
});
