import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

/**
 * The web app's message catalogs (docs/decisions/054): one per feature, beside its code,
 * so a page loads only its own, and one for the frame every page shares (app/, components/,
 * lib/). English is the source; a message a catalog lacks falls back to it. `npm run
 * i18n:extract` writes them; translators' tools read and write the PO files.
 */
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'de', 'ja', 'ar'],
  fallbackLocales: { default: 'en' },
  format: formatter({ lineNumbers: false }),
  orderBy: 'messageId',
  catalogs: [
    {
      path: '<rootDir>/apps/web/src/locales/{locale}',
      include: [
        '<rootDir>/apps/web/src/app',
        '<rootDir>/apps/web/src/components',
        '<rootDir>/apps/web/src/lib',
        '<rootDir>/apps/web/src/*.tsx',
      ],
    },
    {
      path: '<rootDir>/apps/web/src/features/{name}/locales/{locale}',
      include: ['<rootDir>/apps/web/src/features/{name}'],
    },
  ],
});
