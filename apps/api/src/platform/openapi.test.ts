import http from 'node:http';
import { errorCodes } from '@coffer/contracts/errors';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.ts';
import { apiPrefix } from './openapi.ts';

let app: FastifyInstance;
useTestApp((opened) => {
  app = opened.app;
});

type Operation = {
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses?: Record<string, unknown>;
};
type OpenApiDocument = {
  openapi: string;
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
};

async function openApiDocument(): Promise<OpenApiDocument> {
  const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** A registered route's path as OpenAPI writes it: `:userId` becomes `{userId}`. */
function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}

describe('OpenAPI document', () => {
  it('describes every registered API route, and nothing outside the API', async () => {
    const document = await openApiDocument();
    expect(document.openapi).toBe('3.1.0');
    const apiRoutes = app.registeredRoutes.filter((route) => route.url.startsWith(`${apiPrefix}/`));
    expect(apiRoutes.length).toBeGreaterThan(50);
    const missing = apiRoutes
      .filter((route) => !document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()])
      .map((route) => `${route.method} ${route.url}`);
    expect(missing).toEqual([]);
    expect(Object.keys(document.paths).filter((path) => !path.startsWith(apiPrefix))).toEqual([]);
  });

  it('takes request and response shapes from the routes’ zod schemas', async () => {
    const document = await openApiDocument();
    const login = document.paths[`${apiPrefix}/auth/login`]?.post;
    const body = login?.requestBody?.content['application/json']?.schema as {
      properties?: Record<string, unknown>;
      required?: string[];
    };
    expect(Object.keys(body.properties ?? {})).toEqual(
      expect.arrayContaining(['email', 'password']),
    );
    expect(body.required).toEqual(expect.arrayContaining(['email', 'password']));
    const health = document.paths[`${apiPrefix}/health`]?.get;
    expect(health?.responses?.['200']).toBeDefined();
  });

  it('asks for an Idempotency-Key on every money route, and groups routes by capability', async () => {
    const document = await openApiDocument();
    const payout = document.paths[`${apiPrefix}/payouts`]?.post as Operation & {
      parameters?: { in: string; name: string; required?: boolean }[];
      tags?: string[];
    };
    expect(payout.parameters).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'idempotency-key', required: true }),
    );
    expect(payout.tags).toEqual(['payouts']);
    const moneyRoutes = app.registeredRoutes.filter((route) => route.config?.isIdempotent);
    expect(moneyRoutes.length).toBeGreaterThan(0);
    for (const route of moneyRoutes) {
      const operation = document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()] as {
        parameters?: { name: string }[];
      };
      expect(operation.parameters?.map((parameter) => parameter.name)).toContain('idempotency-key');
    }
  });

  it('lists every error code with its status and meaning', async () => {
    const { description } = (await openApiDocument()).info;
    for (const [code, { status }] of Object.entries(errorCodes)) {
      expect(description).toContain(`| \`${code}\` | ${status} |`);
    }
  });

  it('serves the reference page and its scripts from our own origin under the app’s CSP', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const scripts = [...page.body.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    // Every script is a file of ours on this origin (no CDN), and none is inline.
    for (const src of scripts) {
      expect(src).toMatch(/^\/api\/docs\//);
      const script = await app.inject({ method: 'GET', url: src });
      expect(script.statusCode, src).toBe(200);
    }
    expect(page.body).not.toMatch(/<script(?![^>]*src=)[^>]*>/);
  });

  it('answers a path that climbs out of the reference’s files as not found', async () => {
    // Over a real connection: inject's URL parsing would resolve the dots before the server.
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    for (const path of [
      '/api/docs/static/%2e%2e/package.json',
      '/api/docs/static/%2e%2e/%2e%2e/%2e%2e/package.json',
      '/api/docs/static/..%2f..%2fpackage.json',
      '/api/docs/static/no-such-file.js',
    ]) {
      const response = await rawGet(Number(port), path);
      expect(response.status, path).toBe(404);
      expect(JSON.parse(response.body).error.code, path).toBe('not_found');
    }
  });
});

/** A GET whose path is sent byte for byte, as a client that does not normalize it sends it. */
function rawGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}
