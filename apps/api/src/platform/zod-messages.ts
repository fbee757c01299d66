import type { Language } from '@coffer/contracts/languages';
import { ar, de, en, ja } from 'zod/v4/locales';

/**
 * Zod's own words for a refusal the contracts give no message of their own ("Too small:
 * expected string to have >=1 characters"), in the request's language: zod keeps them per
 * locale (zod/v4/locales), so they are not in our catalogs. A refusal with the contracts'
 * own message is translated from the catalogs instead (`translateText`).
 */
const zodLocales = { en: en(), de: de(), ja: ja(), ar: ar() } satisfies Record<Language, unknown>;

type ValidationIssue = {
  keyword: string;
  message?: string | undefined;
  params?: Record<string, unknown> | undefined;
};

function messageOf(answer: unknown): string | undefined {
  if (typeof answer === 'string') return answer;
  if (answer && typeof answer === 'object' && 'message' in answer) {
    return typeof answer.message === 'string' ? answer.message : undefined;
  }
  return undefined;
}

/**
 * The issue's message in `language` when it is zod's default English one; undefined when
 * the message is the contracts' own (or zod cannot say the same words again: a refused
 * type's received value is not kept with the issue).
 */
export function zodMessageIn(language: Language, issue: ValidationIssue): string | undefined {
  if (language === 'en' || issue.message === undefined) return undefined;
  // fastify-type-provider-zod keeps zod's issue as `params` (all but path, code, message):
  // put back together, it is the issue zod's error maps read.
  const raw = { ...issue.params, code: issue.keyword, path: [] } as unknown as Parameters<
    typeof zodLocales.en.localeError
  >[0];
  if (messageOf(zodLocales.en.localeError(raw)) !== issue.message) return undefined;
  return messageOf(zodLocales[language].localeError(raw));
}
