import { languageSchema } from './languages.ts';
import { z } from './zod.ts';

/**
 * The operator's own words about their institution, which they may write in each language
 * (`translations`, below). Every field is optional, and a page leaves out a section whose
 * text is missing.
 */
export const siteTextShape = {
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
 * GET /public/site: the operator's file and what the installation offers everyone, the
 * languages people may choose among (COFFER_LANGUAGES, docs/decisions/054).
 */
export const siteAnswerSchema = z.extend(siteSchema, {
  languages: z.array(languageSchema).check(z.minLength(1)),
});
export type Site = z.infer<typeof siteSchema>;
export type SiteAnswer = z.infer<typeof siteAnswerSchema>;

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
