// The operator's site file, checked at start-up: its texts per language (`translations`)
// are refused with the field's path when they are not of a language Coffer speaks, name a
// field that has no text, or are too long; a page in a language takes each text it has.
import { afterAll, describe, expect, it } from 'vitest';
import { writeTestSiteFile } from '../../../test/site-file.ts';

const removals: (() => void)[] = [];
afterAll(() => {
  for (const remove of removals) remove();
});

function fileWith(content: unknown): string {
  const written = writeTestSiteFile(content);
  removals.push(written.remove);
  return written.path;
}

import { loadSite, siteIn } from './site.ts';

const site = {
  institutionName: 'Harbour Credit Union',
  tagline: 'Banking you can check.',
  story: 'We began as a savings circle.',
  translations: {
    de: { tagline: 'Banking, das Sie prüfen können.' },
    ar: { tagline: 'خدمات مصرفية يمكنك التحقق منها.', story: 'بدأنا جمعية ادخار.' },
  },
};

describe('the site file’s texts per language', () => {
  it('reads them, and a page takes each text in its language or else the file’s own', () => {
    const loaded = loadSite(fileWith(site), { isSandbox: false });
    expect(siteIn(loaded, 'de')).toEqual({
      institutionName: 'Harbour Credit Union',
      tagline: 'Banking, das Sie prüfen können.',
      story: 'We began as a savings circle.',
    });
    expect(siteIn(loaded, 'ar')).toMatchObject({
      tagline: 'خدمات مصرفية يمكنك التحقق منها.',
      story: 'بدأنا جمعية ادخار.',
    });
    // Japanese has none of its own: the file's words, and no `translations` or `terms`.
    expect(siteIn(loaded, 'ja')).toEqual({
      institutionName: 'Harbour Credit Union',
      tagline: 'Banking you can check.',
      story: 'We began as a savings circle.',
    });
  });

  it.each([
    [
      'a language Coffer does not speak',
      { fr: { tagline: 'Bonjour' } },
      /translations: fr: not a language Coffer speaks \(en, de, ja, ar\)/,
    ],
    ['a misspelt field', { de: { tagLine: 'Hallo' } }, /translations\.de: .*tagLine/],
    ['a field that is not a text', { de: { contactEmail: 'de@harbour.example' } }, /contactEmail/],
    ['a text too long', { ja: { tagline: 'あ'.repeat(201) } }, /translations\.ja\.tagline: /],
  ])('stops start-up on %s, naming where it is', (_case, translations, problem) => {
    const filePath = fileWith({ ...site, translations });
    expect(() => loadSite(filePath, { isSandbox: false })).toThrow(problem);
    expect(() => loadSite(filePath, { isSandbox: false })).toThrow(/COFFER_SITE_FILE/);
  });

  it('gives a sandbox without a file its own texts in every language, and nothing else none', () => {
    const sandbox = loadSite(undefined, { isSandbox: true });
    const english = siteIn(sandbox, 'en');
    expect(english.tagline).toMatch(/sandbox/i);
    for (const language of ['de', 'ja', 'ar'] as const) {
      const translated = siteIn(sandbox, language);
      for (const field of ['tagline', 'story', 'mission', 'vision'] as const) {
        expect(translated[field], `${language} ${field}`).toBeTruthy();
        expect(translated[field], `${language} ${field}`).not.toBe(english[field]);
      }
    }
    // Who runs it is not said: those sections stay out of a sandbox's pages.
    expect(english).not.toHaveProperty('whoWeAre');
    expect(english).not.toHaveProperty('leadership');
    expect(english).not.toHaveProperty('foundingYear');
    expect(loadSite(undefined, { isSandbox: false })).toEqual({ institutionName: 'Coffer' });
  });
});
