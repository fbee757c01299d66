import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/app.ts';
import { openTestDatabase } from '../../test/database.ts';
import { signedUpClient, TestClient } from '../../test/http.ts';
import type { Database } from '../db/client.ts';

// A web build in miniature: the app's index.html, the landing page's template, and a
// renderer that shows what it was given (the real one is apps/web/src/landing-server.tsx).
const appPage = '<!doctype html><html><body><div id="root"></div>the app</body></html>';
const template = '<!doctype html><title><!--landing-title--></title><!--landing-page-->';
const echoRenderer = `
export function renderLandingPage(template, data) {
  if (data.site.institutionName === 'Broken Renderer') throw new Error('the renderer failed');
  const page = JSON.stringify({
    name: data.site.institutionName,
    isSandbox: data.health.isSandbox,
    email: data.me ? data.me.email : null,
  });
  return template
    .replace('<!--landing-title-->', data.site.institutionName)
    .replace('<!--landing-page-->', '<main>' + page + '</main>');
}
`;

// The app's server-rendered pages (the real renderer is apps/web/src/app-server.tsx): this
// one asks the API for the session, as the real one asks for every answer it renders.
const echoAppRenderer = `
export const serverRenderedPaths = ['/dashboard', '/admin/users/:userId', '/signin'];
export const visitorPagePaths = ['/signin'];
export async function renderAppPage(request, build) {
  const session = await request.callApi('/api/v1/auth/session');
  const user = session.json.user;
  if (request.url.startsWith('/signin')) {
    if (user) return null;
    const form = JSON.stringify({ url: request.url, language: request.language });
    return build.template.replace('the app', '<main>' + form + '</main>');
  }
  if (!user) return null;
  if (user.username.startsWith('Broken')) throw new Error('the renderer failed');
  const page = JSON.stringify({
    url: request.url,
    email: user.email,
    language: request.language,
    cookieNames: [...request.cookies.keys()].sort(),
    manifest: build.manifest.marker,
  });
  return build.template.replace('the app', '<main>' + page + '</main>');
}
`;

const scratchDir = mkdtempSync(path.join(os.tmpdir(), 'coffer-web-app-test-'));

function webBuild(name: string, options: { hasRenderer: boolean }): string {
  const distDir = path.join(scratchDir, name);
  mkdirSync(path.join(distDir, 'server'), { recursive: true });
  mkdirSync(path.join(distDir, '.vite'), { recursive: true });
  writeFileSync(path.join(distDir, 'index.html'), appPage);
  if (options.hasRenderer) {
    writeFileSync(path.join(distDir, 'landing.html'), template);
    writeFileSync(path.join(distDir, 'server', 'landing-server.js'), echoRenderer);
    writeFileSync(path.join(distDir, 'server', 'app-server.js'), echoAppRenderer);
    writeFileSync(path.join(distDir, '.vite', 'manifest.json'), '{"marker":"the manifest"}');
  }
  return distDir;
}

function siteFile(institutionName: string): string {
  const filePath = path.join(scratchDir, `${institutionName.replaceAll(' ', '-')}.json`);
  writeFileSync(filePath, JSON.stringify({ institutionName }));
  return filePath;
}

let db: Database;
const apps: FastifyInstance[] = [];

async function appWith(distDir: string, institutionName: string): Promise<FastifyInstance> {
  const app = await buildTestApp(db, {
    COFFER_WEB_DIST: distDir,
    COFFER_SITE_FILE: siteFile(institutionName),
  });
  await app.ready();
  apps.push(app);
  return app;
}

/** What an echo renderer put in the page's <main>. */
function renderedData<Data = { name: string; isSandbox: boolean; email: string | null }>(
  body: string,
): Data {
  const match = /<main>(.*)<\/main>/.exec(body);
  if (!match?.[1]) throw new Error(`no rendered landing page in: ${body.slice(0, 200)}`);
  return JSON.parse(match[1]);
}

let app: FastifyInstance;

beforeAll(async () => {
  db = await openTestDatabase();
  app = await appWith(webBuild('with-renderer', { hasRenderer: true }), 'Harbour Test Bank');
});
afterAll(async () => {
  for (const each of apps) await each.close();
  await db.close();
  rmSync(scratchDir, { recursive: true, force: true });
});

describe('the server-rendered landing page', () => {
  it('renders GET / for a visitor from the configured site, not the app', async () => {
    const response = await new TestClient(app).get('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<title>Harbour Test Bank</title>');
    expect(renderedData(response.body)).toEqual({
      name: 'Harbour Test Bank',
      isSandbox: false,
      email: null,
    });
    expect(response.body).not.toContain('the app');
  });

  it('renders the signed-in variant with the session’s own user', async () => {
    const { client, body } = await signedUpClient(app);
    const response = await client.get('/');
    expect(response.statusCode).toBe(200);
    expect(renderedData(response.body).email).toBe(body.email);

    await client.post('/api/v1/auth/logout');
    const afterLogout = await new TestClient(app).request('GET', '/', undefined, {
      cookie: 'coffer_session=not-a-session',
    });
    expect(renderedData(afterLogout.body).email).toBeNull();
  });

  it('sends Brotli or gzip to a browser that takes them', async () => {
    const plain = (await new TestClient(app).get('/')).body;
    const brotli = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toBe('accept-encoding, accept-language, cookie');
    expect(brotliDecompressSync(brotli.rawPayload).toString('utf8')).toBe(plain);
    const gzip = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain);
  });

  it('keeps the renderer and its template to the server', async () => {
    for (const url of ['/server/landing-server.js', '/landing.html']) {
      const response = await new TestClient(app).getPage(url);
      expect(response.body, url).toBe(appPage);
      expect(response.body, url).not.toContain('renderLandingPage');
    }
  });

  it('serves the app’s own landing page when rendering fails', async () => {
    const broken = await appWith(webBuild('broken', { hasRenderer: true }), 'Broken Renderer');
    const response = await new TestClient(broken).get('/');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(appPage);
  });

  it('says the language of the app’s page it serves: the chosen one, else the browser’s', async () => {
    const withLanguage = webBuild('with-language', { hasRenderer: false });
    writeFileSync(
      path.join(withLanguage, 'index.html'),
      appPage.replace('<html>', '<html lang="en">'),
    );
    const server = await appWith(withLanguage, 'Languages');
    const arabic = await server.inject({
      url: '/no-such-page',
      headers: { accept: 'text/html', 'accept-language': 'ar-KW,ar;q=0.9' },
    });
    expect(arabic.body).toContain('<html lang="ar" dir="rtl">');
    const chosen = await server.inject({
      url: '/no-such-page',
      headers: { accept: 'text/html', 'accept-language': 'ar', cookie: 'coffer-language=de' },
    });
    expect(chosen.body).toContain('<html lang="de" dir="ltr">');
    const unknown = await server.inject({
      url: '/no-such-page',
      headers: { accept: 'text/html', 'accept-language': 'xx;q=abc, *' },
    });
    expect(unknown.body).toContain('<html lang="en" dir="ltr">');
    expect(arabic.headers.vary).toContain('accept-language');
  });

  it('serves the app at / when the build has no renderer', async () => {
    const older = await appWith(webBuild('without-renderer', { hasRenderer: false }), 'Older');
    const response = await new TestClient(older).getPage('/');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(appPage);
  });
});

describe('the server-rendered app pages', () => {
  type AppPageData = {
    url: string;
    email: string;
    language: string | null;
    cookieNames: string[];
    manifest: string;
  };

  it('renders /dashboard with the API’s answers to the browser’s own session', async () => {
    const { client, body } = await signedUpClient(app);
    const response = await client.request('GET', '/dashboard', undefined, {
      'accept-language': 'de-DE,de;q=0.9',
      cookie: `${client.cookie}; coffer-time-zone=Asia%2FTokyo`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    // The customer's own data: no cache may keep it.
    expect(response.headers['cache-control']).toBe('no-store');
    expect(renderedData<AppPageData>(response.body)).toEqual({
      url: '/dashboard',
      email: body.email,
      language: 'de',
      cookieNames: expect.arrayContaining(['coffer-time-zone']),
      manifest: 'the manifest',
    });
  });

  it('renders a page with a parameter for its own address, query included', async () => {
    const { client } = await signedUpClient(app);
    const response = await client.get('/admin/users/0190a0b1-0000-7000-8000-000000000001?tab=kyc');
    expect(response.statusCode).toBe(200);
    expect(renderedData<AppPageData>(response.body).url).toBe(
      '/admin/users/0190a0b1-0000-7000-8000-000000000001?tab=kyc',
    );
  });

  it('leaves the page to the app for a visitor, and when rendering fails', async () => {
    const visitor = await new TestClient(app).get('/dashboard');
    expect(visitor.body).toBe(appPage);
    const expired = await new TestClient(app).request('GET', '/dashboard', undefined, {
      cookie: 'coffer_session=not-a-session',
    });
    expect(expired.body).toBe(appPage);
    const { client: broken } = await signedUpClient(app, { username: 'Broken Renderer' });
    const failed = await broken.get('/dashboard');
    expect(failed.statusCode).toBe(200);
    expect(failed.body).toBe(appPage);
  });

  it('renders a visitors’ page without any cookie, and leaves a signed-in user’s to the app', async () => {
    const visitor = await new TestClient(app).request('GET', '/signin', undefined, {
      'accept-language': 'ja',
    });
    expect(visitor.statusCode).toBe(200);
    expect(visitor.headers['cache-control']).toBe('no-store');
    expect(renderedData<{ url: string; language: string }>(visitor.body)).toEqual({
      url: '/signin',
      language: 'ja',
    });
    const { client } = await signedUpClient(app);
    expect((await client.get('/signin')).body).toBe(appPage);
  });

  it('gives a page’s address with a parameter longer than any id to the renderer, an API’s the JSON 404', async () => {
    // Fastify's router refuses a path parameter over 100 characters before any route runs.
    // A page's address must still reach the page (the real renderer finds the API's 404 and
    // hands it to the app, whose 404 page the person sees), never the API's JSON.
    const longId = 'a'.repeat(120);
    const { client } = await signedUpClient(app);
    const page = await client.get(`/admin/users/${longId}`);
    expect(page.statusCode).toBe(200);
    expect(renderedData<AppPageData>(page.body).url).toBe(`/admin/users/${longId}`);
    const visitor = await new TestClient(app).get(`/admin/users/${longId}`);
    expect(visitor.body).toBe(appPage);
    const api = await client.get(`/api/v1/admin/users/${longId}`);
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: { code: 'not_found', message: 'Not found.' } });
  });

  it('keeps the renderer and the build’s manifest to the server', async () => {
    for (const url of ['/server/app-server.js', '/.vite/manifest.json']) {
      const response = await new TestClient(app).getPage(url);
      expect(response.body, url).toBe(appPage);
    }
  });

  it('serves the app at /dashboard when the build has no renderer', async () => {
    const older = await appWith(webBuild('without-app-renderer', { hasRenderer: false }), 'Old');
    const { client } = await signedUpClient(older);
    expect((await client.getPage('/dashboard')).body).toBe(appPage);
  });

  it('answers a monitor probing an unknown endpoint with the JSON 404, a browser with the app', async () => {
    // A 200 with the app's HTML at /metrics or /readyz reads as a healthy endpoint.
    for (const url of ['/metrics', '/readyz', '/healthz', '/status']) {
      const probe = await new TestClient(app).get(url);
      expect(probe.statusCode, url).toBe(404);
      expect(probe.json(), url).toEqual({ error: { code: 'not_found', message: 'Not found.' } });
      const scrape = await new TestClient(app).request('GET', url, undefined, {
        accept: 'application/openmetrics-text;version=1.0.0;q=0.5,text/plain;q=0.3,*/*;q=0.2',
      });
      expect(scrape.statusCode, url).toBe(404);
    }
    const page = await new TestClient(app).getPage('/no-such-page');
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(appPage);
  });
});
