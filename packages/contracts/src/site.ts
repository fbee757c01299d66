import { type Language, languageSchema, languages } from './languages.ts';
import { termsSchema } from './terms.ts';
import { z } from './zod.ts';

/**
 * The operator's own words about their institution, which they may write in each language
 * (`translations`, below). Every field is optional, and a page leaves out a section whose
 * text is missing.
 */
const siteTextShape = {
  tagline: z.optional(z.string().check(z.maxLength(200))),
  story: z.optional(z.string().check(z.maxLength(4000))),
  mission: z.optional(z.string().check(z.maxLength(1000))),
  vision: z.optional(z.string().check(z.maxLength(1000))),
  whoWeAre: z.optional(z.string().check(z.maxLength(2000))),
  leadership: z.optional(
    z
      .array(
        z.object({
          name: z.string().check(z.minLength(1), z.maxLength(100)),
          role: z.string().check(z.minLength(1), z.maxLength(100)),
        }),
      )
      .check(z.maxLength(20)),
  ),
  quickLinks: z.optional(
    z
      .array(
        z.object({
          label: z.string().check(z.minLength(1), z.maxLength(60)),
          url: z.string().check(z.minLength(1), z.maxLength(500)),
        }),
      )
      .check(z.maxLength(12)),
  ),
  depositInstructions: z.optional(z.string().check(z.maxLength(4000))),
};

/**
 * What the operator says about their institution, from their configuration file. Every
 * field but the name is optional, and a page leaves out a section whose data is missing:
 * public pages never show invented figures.
 */
export const siteSchema = z.object({
  institutionName: z.string().check(z.minLength(1), z.maxLength(80)),
  contactEmail: z.optional(z.email()),
  careersEmail: z.optional(z.email()),
  foundingYear: z.optional(z.number().check(z.int(), z.gte(1800), z.lte(2100))),
  ...siteTextShape,
});

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
  Object.fromEntries(languages.map((language) => [language, z.optional(siteTextsSchema)])) as {
    [language in Language]: z.ZodMiniOptional<typeof siteTextsSchema>;
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `${issue.keys.join(', ')}: not a language Coffer speaks (${languages.join(', ')})`
        : undefined,
  },
);
export type SiteTranslations = z.infer<typeof siteTranslationsSchema>;

/**
 * GET /public/site: the operator's file and what the installation offers everyone, the
 * languages people may choose among (COFFER_LANGUAGES, docs/decisions/054).
 */
export const siteAnswerSchema = z.extend(siteSchema, {
  languages: z.array(languageSchema).check(z.minLength(1)),
});
export type Site = z.infer<typeof siteSchema>;
export type SiteAnswer = z.infer<typeof siteAnswerSchema>;

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

export const devMailListSchema = z.object({
  messages: z.array(
    z.object({
      id: z.string(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      createdAt: z.string(),
    }),
  ),
});
