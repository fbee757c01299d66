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

const scratchDir = mkdtempSync(path.join(os.tmpdir(), 'coffer-web-app-test-'));

function webBuild(name: string, options: { hasRenderer: boolean }): string {
  const distDir = path.join(scratchDir, name);
  mkdirSync(path.join(distDir, 'server'), { recursive: true });
  writeFileSync(path.join(distDir, 'index.html'), appPage);
  if (options.hasRenderer) {
    writeFileSync(path.join(distDir, 'landing.html'), template);
    writeFileSync(path.join(distDir, 'server', 'landing-server.js'), echoRenderer);
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

/** What the echo renderer put in the page's <main>. */
function renderedData(body: string): { name: string; isSandbox: boolean; email: string | null } {
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
    expect(brotli.headers.vary).toBe('accept-encoding, cookie');
    expect(brotliDecompressSync(brotli.rawPayload).toString('utf8')).toBe(plain);
    const gzip = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain);
  });

  it('keeps the renderer and its template to the server', async () => {
    for (const url of ['/server/landing-server.js', '/landing.html']) {
      const response = await new TestClient(app).get(url);
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

  it('serves the app at / when the build has no renderer', async () => {
    const older = await appWith(webBuild('without-renderer', { hasRenderer: false }), 'Older');
    const response = await new TestClient(older).get('/');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(appPage);
  });
});
