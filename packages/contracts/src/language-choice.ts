// The person's choice of language (docs/decisions/055), apart from languages.ts, which every
// page loads: only the pages that change it load these schemas.
import { languageSchema, languages } from './languages.ts';
import { z } from './zod.ts';

/** A language the operator has not enabled (COFFER_LANGUAGES), chosen anyway. */
export const languageNotOfferedMessage = 'This language is not offered here.';

/** PUT /profile/language: the signed-in person's language, for the app, emails and statements. */
export const updateLanguageBodySchema = z.object({
  language: z.enum(languages, { error: 'Choose one of the languages offered' }),
});
export const updateLanguageResponseSchema = z.object({ language: languageSchema });
