// GET /public/site in the request's language: the operator's texts in it where their file
// has them, the file's own where it has none (docs/decisions/054).
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { TestClient } from '../../../test/http.ts';
import { writeTestSiteFile } from '../../../test/site-file.ts';

const siteFile = writeTestSiteFile({
  institutionName: 'Harbour Credit Union',
  tagline: 'Banking you can check.',
  mission: 'Keep every member’s money safe and visible.',
  depositInstructions: 'Pay in at any branch.',
  translations: {
    de: {
      tagline: 'Banking, das Sie prüfen können.',
      depositInstructions: 'Zahlen Sie in jeder Filiale ein.',
    },
  },
});

let app: FastifyInstance;
useTestApp(
  (opened) => {
    app = opened.app;
  },
  { env: { COFFER_SITE_FILE: siteFile.path } },
);

function siteAsked(headers: Record<string, string>) {
  return new TestClient(app).request('GET', '/api/v1/public/site', undefined, headers);
}

describe('the site’s texts in the visitor’s language', () => {
  it('answers a German browser with the German texts, the others from the file', async () => {
    const response = await siteAsked({ 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    expect(response.statusCode).toBe(200);
    expect(response.headers.vary).toBe('accept-language, cookie');
    expect(response.json()).toMatchObject({
      institutionName: 'Harbour Credit Union',
      tagline: 'Banking, das Sie prüfen können.',
      depositInstructions: 'Zahlen Sie in jeder Filiale ein.',
      // No German mission: the file's own.
      mission: 'Keep every member’s money safe and visible.',
    });
    expect(response.json()).not.toHaveProperty('translations');
  });

  it('follows the chosen language over the browser’s', async () => {
    const chosen = await siteAsked({ 'accept-language': 'en', cookie: 'coffer-language=de' });
    expect(chosen.json().tagline).toBe('Banking, das Sie prüfen können.');
  });

  it('answers a language without texts of its own, or an unknown one, with the file’s', async () => {
    for (const acceptLanguage of ['ja', 'ar-KW', 'fr', 'not a language;;']) {
      const response = await siteAsked({ 'accept-language': acceptLanguage });
      expect(response.statusCode, acceptLanguage).toBe(200);
      expect(response.json().tagline, acceptLanguage).toBe('Banking you can check.');
    }
  });
});
