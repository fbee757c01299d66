import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendError } from './error-handler.ts';

const immutableAssetMaxAgeSeconds = 365 * 24 * 60 * 60;

/**
 * Serves the built web app. Hashed assets are cached for a year; every other path that is
 * not an API route gets index.html, so the client router (and its 404 page) decides.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const hasBuild = existsSync(path.join(distDir, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: false,
      // The build writes .br and .gz copies of its text files (apps/web/precompress.ts);
      // a browser that accepts one gets it, with the original's type and cache headers.
      preCompressed: true,
      setHeaders(response, filePath) {
        const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
        response.header(
          'cache-control',
          isHashedAsset ? `public, max-age=${immutableAssetMaxAgeSeconds}, immutable` : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn({ distDir }, 'no web build found; only the API is served (run npm run build)');
  }
  app.setNotFoundHandler((request, reply) => {
    const isPageRequest = request.method === 'GET' || request.method === 'HEAD';
    if (!hasBuild || !isPageRequest || request.url.startsWith('/api/')) {
      return sendError(reply, 'not_found');
    }
    return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
  });
}
