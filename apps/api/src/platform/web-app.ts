import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { type Me, sessionResponseSchema } from '@coffer/contracts/auth';
import type { HealthResponse } from '@coffer/contracts/health';
import { directionOf, type Language } from '@coffer/contracts/languages';
import type { SiteAnswer } from '@coffer/contracts/site';
import fastifyStatic, { type FastifyStaticOptions } from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { declarePublicFiles } from './access.ts';
import { sendError } from './error-handler.ts';
import { languageOf } from './languages.ts';

const immutableAssetMaxAgeSeconds = 365 * 24 * 60 * 60;

/** The web build's server-rendered landing page (apps/web/src/landing-server.tsx). */
const landingRendererFile = path.join('server', 'landing-server.js');
const landingTemplateFile = 'landing.html';
/** The web build's server-rendered app pages (apps/web/src/app-server.tsx). */
const appRendererFile = path.join('server', 'app-server.js');
const appTemplateFile = 'index.html';
/** The client build's manifest: which files a page's modules and styles are in. */
const buildManifestFile = path.join('.vite', 'manifest.json');
/** A page rendered for one request is compressed quickly rather than as small as can be. */
const perRequestBrotliQuality = 5;

type LandingPageData = { site: SiteAnswer; health: HealthResponse; me: Me | null };
type RenderLandingPage = (template: string, data: LandingPageData, language: Language) => string;

type ApiAnswer = { status: number; json: unknown };
type AppPageRequest = {
  /** Path and query, as asked for. */
  url: string;
  callApi: (apiPath: string) => Promise<ApiAnswer>;
  cookies: ReadonlyMap<string, string>;
  language: Language;
};
type AppRenderer = {
  serverRenderedPaths: readonly string[];
  /** The patterns rendered for visitors (sign-up, sign-in), who may have no cookie yet. */
  visitorPagePaths?: readonly string[];
  renderAppPage: (
    request: AppPageRequest,
    build: { template: string; manifest: unknown },
  ) => Promise<string | null>;
};

type ContentEncoding = 'br' | 'gzip' | 'identity';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Brotli or gzip when the browser takes it, as the build's precompressed files are served. */
function encodingFor(request: FastifyRequest): ContentEncoding {
  const accepted = request.headers['accept-encoding'] ?? '';
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return 'identity';
}

async function encode(
  html: string,
  encoding: ContentEncoding,
  options: { isPerRequest: boolean },
): Promise<Buffer> {
  const content = Buffer.from(html, 'utf8');
  if (encoding === 'br') {
    return brotliAsync(content, {
      params: {
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        ...(options.isPerRequest
          ? { [constants.BROTLI_PARAM_QUALITY]: perRequestBrotliQuality }
          : {}),
      },
    });
  }
  if (encoding === 'gzip') return gzipAsync(content);
  return content;
}

async function loadRenderer(distDir: string): Promise<RenderLandingPage> {
  const module: { renderLandingPage?: unknown } = await import(
    pathToFileURL(path.join(distDir, landingRendererFile)).href
  );
  if (typeof module.renderLandingPage !== 'function') {
    throw new Error(`${landingRendererFile} does not export renderLandingPage`);
  }
  return module.renderLandingPage as RenderLandingPage;
}

/** A GET of the API answered as the page's own request from this browser would be. */
async function callApiFor(
  app: FastifyInstance,
  request: FastifyRequest,
  apiPath: string,
): Promise<ApiAnswer> {
  const response = await app.inject({
    method: 'GET',
    url: apiPath,
    headers: {
      accept: 'application/json',
      ...(request.headers.cookie ? { cookie: request.headers.cookie } : {}),
    },
    remoteAddress: request.ip,
  });
  return { status: response.statusCode, json: response.json() };
}

/** The signed-in user, asked of the session route exactly as the page itself would ask. */
async function signedInUser(app: FastifyInstance, request: FastifyRequest): Promise<Me | null> {
  if (!request.headers.cookie) return null;
  const answer = await callApiFor(app, request, '/api/v1/auth/session');
  if (answer.status !== 200) return null;
  return sessionResponseSchema.parse(answer.json).user;
}

function sendRenderedPage(
  reply: FastifyReply,
  body: Buffer,
  options: { encoding: ContentEncoding; cacheControl: string },
) {
  if (options.encoding !== 'identity') reply.header('content-encoding', options.encoding);
  return reply
    .header('cache-control', options.cacheControl)
    .header('vary', 'accept-encoding, accept-language, cookie')
    .type('text/html; charset=utf-8')
    .send(body);
}

/**
 * GET / is the landing page rendered on the server (docs/decisions/010): HTML, its styles
 * and a small script, without the app's JavaScript. A visitor's page depends only on the
 * configuration, so it is rendered once per encoding; a signed-in user's is rendered for
 * their request. If rendering fails, the app's own landing page takes over.
 */
function registerLandingPage(
  app: FastifyInstance,
  distDir: string,
  sendAppPage: SendAppPage,
): void {
  const template = readFileSync(path.join(distDir, landingTemplateFile), 'utf8');
  let renderer: Promise<RenderLandingPage> | undefined;
  const health: HealthResponse = {
    status: 'ok',
    database: app.db.kind,
    isSandbox: app.config.isSandbox,
  };
  const render = async (me: Me | null, language: Language) => {
    renderer ??= loadRenderer(distDir);
    const site = { ...app.site, languages: [...app.config.languages] };
    return (await renderer)(template, { site, health, me }, language);
  };
  const visitorPages = new Map<string, Promise<Buffer>>();
  const visitorPage = (encoding: ContentEncoding, language: Language) => {
    const key = `${language} ${encoding}`;
    let page = visitorPages.get(key);
    if (!page) {
      page = render(null, language).then((html) => encode(html, encoding, { isPerRequest: false }));
      // A failure is not kept: the next visitor tries again.
      page.catch(() => visitorPages.delete(key));
      visitorPages.set(key, page);
    }
    return page;
  };

  app.get('/', { config: { access: 'public', ignoresSession: true } }, async (request, reply) => {
    const encoding = encodingFor(request);
    const language = languageOf(request);
    let body: Buffer;
    try {
      const me = await signedInUser(app, request);
      body = me
        ? await encode(await render(me, language), encoding, { isPerRequest: true })
        : await visitorPage(encoding, language);
    } catch (error) {
      request.log.error({ err: error }, 'the landing page did not render; serving the app');
      return sendAppPage(request, reply);
    }
    return sendRenderedPage(reply, body, { encoding, cacheControl: 'no-cache' });
  });
}

async function loadAppRenderer(distDir: string): Promise<AppRenderer> {
  const module: Partial<AppRenderer> = await import(
    pathToFileURL(path.join(distDir, appRendererFile)).href
  );
  if (typeof module.renderAppPage !== 'function' || !Array.isArray(module.serverRenderedPaths)) {
    throw new Error(`${appRendererFile} does not export renderAppPage and serverRenderedPaths`);
  }
  return module as AppRenderer;
}

/**
 * The pages the web build renders on the server for a signed-in user (the dashboard and
 * the other pages people open most, docs/decisions/011 and 027; route patterns such as
 * `/admin/users/:userId`), and for a visitor (sign-up, sign-in, forgot password: 056): the
 * page arrives painted, with the API answers it was rendered from, and the app takes over
 * from there. A signed-in page holds the customer's own data, so no cache keeps any of
 * them. Anyone else, or a failure, gets the app's index.html as for any other page.
 */
async function registerServerRenderedAppPages(
  app: FastifyInstance,
  distDir: string,
  sendAppPage: SendAppPage,
) {
  const renderer = await loadAppRenderer(distDir);
  const build = {
    template: readFileSync(path.join(distDir, appTemplateFile), 'utf8'),
    manifest: JSON.parse(readFileSync(path.join(distDir, buildManifestFile), 'utf8')) as unknown,
  };
  for (const pagePath of renderer.serverRenderedPaths) {
    const isForVisitors = renderer.visitorPagePaths?.includes(pagePath) ?? false;
    app.get(
      routePathFor(pagePath),
      { config: { access: 'public', ignoresSession: true } },
      async (request, reply) => {
        if (!(request.headers.cookie || isForVisitors)) return sendAppPage(request, reply);
        const encoding = encodingFor(request);
        let body: Buffer;
        try {
          const html = await renderer.renderAppPage(
            {
              url: request.url,
              callApi: (apiPath) => callApiFor(app, request, apiPath),
              cookies: new Map(
                Object.entries(request.cookies).flatMap(([name, value]) =>
                  value === undefined ? [] : [[name, value]],
                ),
              ),
              language: languageOf(request),
            },
            build,
          );
          if (html === null) return sendAppPage(request, reply);
          body = await encode(html, encoding, { isPerRequest: true });
        } catch (error) {
          request.log.error({ err: error, pagePath }, 'the page did not render; serving the app');
          return sendAppPage(request, reply);
        }
        return sendRenderedPage(reply, body, { encoding, cacheControl: 'no-store' });
      },
    );
  }
}

/**
 * The route a page's pattern is served on: from its first parameter on, a wildcard. The
 * renderer matches the address against the pattern itself, and hands anything else to the
 * app; Fastify's router would refuse a parameter over 100 characters before any route ran,
 * with the API's JSON 404 where a browser should get the app's own 404 page.
 */
function routePathFor(pagePattern: string): string {
  const firstParameter = pagePattern.indexOf('/:');
  return firstParameter === -1 ? pagePattern : `${pagePattern.slice(0, firstParameter)}/*`;
}

/**
 * The app's index.html in each language it is asked in: `<html lang dir>` says the page's
 * language before any script runs (the app starts in it, src/lib/i18n.ts), and a screen
 * reader reads it in that language. Made and compressed once per language and encoding.
 */
function appShellPages(distDir: string) {
  const template = readFileSync(path.join(distDir, appTemplateFile), 'utf8');
  const pages = new Map<string, Promise<Buffer>>();
  return (language: Language, encoding: ContentEncoding): Promise<Buffer> => {
    const key = `${language} ${encoding}`;
    let page = pages.get(key);
    if (!page) {
      const html = template.replace(
        /<html lang="[^"]*"/,
        `<html lang="${language}" dir="${directionOf(language)}"`,
      );
      page = encode(html, encoding, { isPerRequest: false });
      pages.set(key, page);
    }
    return page;
  };
}

/** Answers with the app's index.html, whose router then shows the page asked for. */
type SendAppPage = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

function appPageSender(distDir: string): SendAppPage {
  const appShellPage = appShellPages(distDir);
  return async (request, reply) => {
    const encoding = encodingFor(request);
    const body = await appShellPage(languageOf(request), encoding);
    return sendRenderedPage(reply, body, { encoding, cacheControl: 'no-cache' });
  };
}

/**
 * Serves the built web app. Hashed assets are cached for a year; the landing page is
 * rendered on the server when the build includes its renderer; every other path that is
 * not an API route gets index.html, so the client router (and its 404 page) decides.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const hasBuild = existsSync(path.join(distDir, 'index.html'));
  let sendAppPage: SendAppPage = async (_request, reply) => sendError(reply, 'not_found');
  if (hasBuild) {
    sendAppPage = appPageSender(distDir);
    const fileOptions = {
      root: distDir,
      index: false,
      wildcard: false,
      // The renderer and its template are the server's, not files for the browser.
      allowedPath: (pathName) =>
        !pathName.startsWith('/server/') &&
        !pathName.startsWith('/.vite/') &&
        pathName !== `/${landingTemplateFile}`,
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
    } satisfies FastifyStaticOptions;
    // The files' routes are registered in a context of their own that declares them all
    // public (the plugin takes no route config); `reply.sendFile` comes from a second,
    // route-less registration here, for the pages below and the not-found handler.
    await app.register(async (files) => {
      declarePublicFiles(files);
      await files.register(fastifyStatic, { ...fileOptions, decorateReply: false });
    });
    await app.register(fastifyStatic, { ...fileOptions, serve: false });
    if (
      existsSync(path.join(distDir, landingRendererFile)) &&
      existsSync(path.join(distDir, landingTemplateFile))
    ) {
      registerLandingPage(app, distDir, sendAppPage);
    } else {
      app.log.warn({ distDir }, 'the web build has no server-rendered landing page');
    }
    if (
      existsSync(path.join(distDir, appRendererFile)) &&
      existsSync(path.join(distDir, buildManifestFile))
    ) {
      await registerServerRenderedAppPages(app, distDir, sendAppPage);
    } else {
      app.log.warn({ distDir }, 'the web build has no server-rendered app pages');
    }
  } else {
    app.log.warn({ distDir }, 'no web build found; only the API is served (run npm run build)');
  }
  app.setNotFoundHandler((request, reply) => {
    // Only a browser asking for a page gets the app (whose router shows its own not-found
    // page). A monitor probing /metrics or /readyz, or curl, asks for no HTML: it gets the
    // JSON 404, not a 200 with the app's HTML that would read as a healthy endpoint.
    const isPageRequest =
      (request.method === 'GET' || request.method === 'HEAD') &&
      (request.headers.accept ?? '').includes('text/html');
    if (!hasBuild || !isPageRequest || request.url.startsWith('/api/')) {
      return sendError(reply, 'not_found');
    }
    return sendAppPage(request, reply);
  });
}
