// A build step: writes a Brotli (.br) and a gzip (.gz) copy next to every text file of the
// build. The API serves the copy the browser accepts (@fastify/static's preCompressed), so
// pages go out compressed without the server compressing anything per request.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const compressFileNamePattern = /\.(html|js|css|svg|json|txt)$/;
// Below this a response fits in a packet or two anyway; compressing gains nothing.
const uncompressedSizeMinBytes = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function writeCompressedCopies(filePath: string): Promise<void> {
  const content = await readFile(filePath);
  if (content.length < uncompressedSizeMinBytes) return;
  const [brotliContent, gzipContent] = await Promise.all([
    brotli(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
    gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([
    writeFile(`${filePath}.br`, brotliContent),
    writeFile(`${filePath}.gz`, gzipContent),
  ]);
}

export function precompress(): Plugin {
  return {
    name: 'coffer-precompress',
    apply: 'build',
    // Only the browser's files; the server-rendered landing page's module stays as it is.
    applyToEnvironment: (environment) => environment.name === 'client',
    async writeBundle(options, bundle) {
      const outDir = options.dir;
      if (!outDir) throw new Error('precompress needs the build to write to a directory');
      const fileNames = Object.keys(bundle).filter((name) => compressFileNamePattern.test(name));
      await Promise.all(fileNames.map((name) => writeCompressedCopies(path.join(outDir, name))));
    },
  };
}
