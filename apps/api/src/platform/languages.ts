import {
  isLanguage,
  type Language,
  languageCookieName,
  requestLanguage,
  sourceLanguage,
} from '@coffer/contracts/languages';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Queryable } from '../db/client.ts';

/**
 * The language a request is answered in (docs/decisions/054, 055): the person's choice in
 * the language cookie, else what the browser's Accept-Language asks for, among the
 * languages the operator enabled; English when neither names one. Never an error: a
 * malformed header or a disabled code is English. Every message, page and download the API
 * writes for this request asks here; emails and statements use the recipient's stored
 * language instead.
 */
export function languageOf(request: FastifyRequest): Language {
  // The router's own refusals (answerFrameworkError) come before @fastify/cookie has read
  // the cookies: the header alone decides then.
  const cookies = request.cookies as FastifyRequest['cookies'] | undefined;
  // A bare Fastify instance with only the error handler (its tests) has no configuration:
  // English alone is enabled there.
  const config = request.server.config as FastifyRequest['server']['config'] | undefined;
  return requestLanguage(
    cookies?.[languageCookieName],
    request.headers['accept-language'],
    config?.languages ?? [sourceLanguage],
  );
}

/** Browsers keep a cookie at most 400 days (RFC 6265bis): the switcher's choice lasts that long. */
const languageCookieMaxAgeSeconds = 400 * 24 * 60 * 60;

/**
 * Remembers a chosen language in this browser. Not HttpOnly: the web app reads it to load
 * the same catalogs before it asks the API anything, and it is no secret.
 */
export function setLanguageCookie(
  reply: FastifyReply,
  config: Pick<Config, 'isHttps'>,
  language: Language,
): void {
  reply.setCookie(languageCookieName, language, {
    httpOnly: false,
    secure: config.isHttps,
    sameSite: 'lax',
    path: '/',
    maxAge: languageCookieMaxAgeSeconds,
  });
}

/**
 * A stored language (users.language, whose check keeps it one of the four) as a Language;
 * English for none. A language the operator has since disabled is still the person's: a
 * message its catalog lacks is English anyway.
 */
export function toLanguage(stored: string | undefined | null): Language {
  return stored != null && isLanguage(stored) ? stored : sourceLanguage;
}

/** The language a row of `users` is written to in, as SQL: see storedLanguage. */
export const writtenLanguageSql = 'COALESCE(users.language, users.sign_in_language)';

/**
 * The language a person is written to in (emails, notifications, statements), by their id
 * or their address: the one they chose, else that of the request that last signed them in
 * (migration 0053, ADR 055); English for an address that is nobody's yet.
 */
export async function storedLanguage(
  db: Queryable,
  who: { userId: string } | { email: string },
): Promise<Language> {
  const found =
    'userId' in who
      ? await db.query<{ language: string }>(
          `SELECT ${writtenLanguageSql} AS language FROM users WHERE id = $1`,
          [who.userId],
        )
      : await db.query<{ language: string }>(
          `SELECT ${writtenLanguageSql} AS language FROM users WHERE email = $1`,
          [who.email.toLowerCase()],
        );
  return toLanguage(found.rows[0]?.language);
}
