import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstPageCatalogKeys } from './i18n.ts';

const webDir = path.resolve(import.meta.dirname, '../..');
const transferPage = [
  'src/app/shell/shell-layout.tsx',
  'src/features/transfers/pages/transfer-page.tsx',
];

describe('firstPageCatalogKeys', () => {
  it("names the frame's, the page's and its features' catalogs in the language", () => {
    const keys = firstPageCatalogKeys('de', transferPage);
    expect(keys).toContain('src/locales/de.po');
    expect(keys).toContain('src/features/transfers/locales/de.po');
    expect(keys.every((key) => key.includes('/de.po'))).toBe(true);
  });

  it("leaves out the contracts' words, which wait for the person's first input", () => {
    for (const language of ['en', 'de', 'ar'] as const) {
      const keys = firstPageCatalogKeys(language, transferPage);
      expect(keys).toContain(`src/features/transfers/locales/${language}.po`);
      expect(keys.some((key) => key.includes('contracts'))).toBe(false);
    }
  });

  it('names files that exist, as the build names them (from apps/web)', () => {
    for (const key of firstPageCatalogKeys('ar', transferPage)) {
      expect(existsSync(path.resolve(webDir, key.replace(/\?.*$/, '')))).toBe(true);
    }
  });
});
