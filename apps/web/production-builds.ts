// A build step: React Router's package `exports` name only its development build (every
// condition of react-router@7 resolves to dist/development), which warns in the console
// and weighs more (docs/decisions/028, 034). The build takes its production build instead,
// from the same package, for the browser and for the server's render; then it checks the
// browser's files for messages only the development build has, and fails if one is there.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const packageDir = path.dirname(
  createRequire(import.meta.url).resolve('react-router/package.json'),
);

/** What the app imports, and the production file that provides it. */
const productionFiles: Record<string, string> = {
  'react-router': 'dist/production/index.mjs',
  'react-router/dom': 'dist/production/dom-export.mjs',
};

/** Warnings React Router's development build prints; its production build has none. */
export const developmentOnlyMarkers: readonly string[] = [
  'You rendered descendant <Routes>',
  'No routes matched location',
];

/** The names of the chunks in `bundle` holding one of `markers`, with the marker found. */
export function developmentCodeIn(
  chunks: readonly { fileName: string; code: string }[],
  markers: readonly string[] = developmentOnlyMarkers,
): string[] {
  return chunks.flatMap((chunk) =>
    markers.filter((marker) => chunk.code.includes(marker)).map((m) => `${chunk.fileName}: ${m}`),
  );
}

export function productionBuilds(): Plugin {
  return {
    name: 'coffer-production-builds',
    enforce: 'pre',
    apply: 'build',
    resolveId(source) {
      const file = productionFiles[source];
      return file ? path.join(packageDir, file) : null;
    },
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
