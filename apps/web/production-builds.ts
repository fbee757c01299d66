// A build step: the browser must get React Router's production build. ADR 028 found
// react-router@7's development build bundled (every condition of its package `exports`
// named dist/development); react-router@8 names dist/production unless the `development`
// condition is set, which Vite sets only when not building for production (ADR 034). This
// checks the browser's built files for warnings only the development build prints, and
// fails the build if one is there, whatever a later version's `exports` say.
import type { Plugin } from 'vite';

/** Warnings React Router's development build prints; its production build has none. */
export const developmentOnlyMarkers: readonly string[] = [
  'You rendered descendant <Routes>',
  'No routes matched location',
];

/** Each chunk holding one of `markers`, as `file: marker`. */
export function developmentCodeIn(
  chunks: readonly { fileName: string; code: string }[],
  markers: readonly string[] = developmentOnlyMarkers,
): string[] {
  return chunks.flatMap((chunk) =>
    markers
      .filter((marker) => chunk.code.includes(marker))
      .map((marker) => `${chunk.fileName}: ${marker}`),
  );
}

export function productionBuilds(): Plugin {
  return {
    name: 'coffer-production-builds',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    generateBundle(_options, bundle) {
      if (this.environment.config.mode !== 'production') return;
      const chunks = Object.values(bundle).flatMap((item) =>
        item.type === 'chunk' ? [{ fileName: item.fileName, code: item.code }] : [],
      );
      const found = developmentCodeIn(chunks);
      if (found.length > 0) {
        this.error(`a development build was bundled (production-builds.ts):\n${found.join('\n')}`);
      }
    },
  };
}
