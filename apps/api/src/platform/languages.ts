import { type Language, languageCookieName, requestLanguage } from '@coffer/contracts/languages';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/**
 * The language a request is answered in (ADR 055): the person's choice in the language
 * cookie, else what the browser's Accept-Language asks for, among the languages the
 * operator enabled; English when neither names one. Never an error: a malformed header or a
 * disabled code is English. Every message, page and download the API writes for this
 * request asks here; emails and statements use the recipient's stored language instead.
 */
export function languageOf(request: FastifyRequest): Language {
  return requestLanguage(
    request.cookies[languageCookieName],
    request.headers['accept-language'],
    request.server.config.languages,
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
