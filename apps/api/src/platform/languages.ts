import { type Language, languageCookieName, requestLanguage } from '@coffer/contracts/languages';
import type { FastifyRequest } from 'fastify';

/**
 * The language a request is answered in (docs/decisions/054): the visitor's choice (the
 * cookie the switcher and PUT /profile/language write) when the operator enables it, else
 * the first enabled one the browser's Accept-Language asks for, else English. Never an
 * error: a header or cookie the server cannot read means English.
 */
export function languageOf(request: FastifyRequest): Language {
  return requestLanguage(
    request.cookies[languageCookieName],
    request.headers['accept-language'],
    request.server.config.languages,
  );
}
