// The operator's site file (COFFER_SITE_FILE) as the API reads it at start-up. A module of
// its own: the web reads only what GET /public/site answers (site.ts), and its bundles then
// carry none of the file's own checks.
import { type Language, languages } from './languages.ts';
import { siteSchema, siteTextShape } from './site.ts';
import { termsSchema } from './terms.ts';
import { z } from './zod.ts';

/**
 * The texts of the site file in one language: the same fields as the file's own, any of
 * them, and no other (a misspelt field is refused, not ignored).
 */
export const siteTextsSchema = z.strictObject(siteTextShape);
export type SiteTexts = z.infer<typeof siteTextsSchema>;

/**
 * The site file's texts per language (`"translations": {"de": {"tagline": …}}`): a page in
 * German shows the German text of a field where there is one, and the file's own text,
 * whatever language the operator wrote it in, where there is none.
 */
export const siteTranslationsSchema = z.strictObject(
  // One entry per language Coffer speaks; `satisfies` keeps the list whole.
  {
    en: z.optional(siteTextsSchema),
    de: z.optional(siteTextsSchema),
    ja: z.optional(siteTextsSchema),
    ar: z.optional(siteTextsSchema),
  } satisfies Record<Language, unknown>,
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `${issue.keys.join(', ')}: not a language Coffer speaks (${languages.join(', ')})`
        : undefined,
  },
);
export type SiteTranslations = z.infer<typeof siteTranslationsSchema>;

/**
 * The operator's file (COFFER_SITE_FILE): what every page may read (`siteSchema`, the
 * answer of GET /public/site, in the request's language), the terms and privacy notice,
 * which only sign-up and the acceptance page read (GET /public/terms), so no other page
 * downloads them, and the texts in other languages.
 */
export const siteFileSchema = z.extend(siteSchema, {
  terms: z.optional(termsSchema),
  translations: z.optional(siteTranslationsSchema),
});
export type SiteFile = z.infer<typeof siteFileSchema>;
