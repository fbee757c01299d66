// The request log's view of a request: Fastify's own fields, with the query string's
// values left out. Queries carry what staff search for (search=greta.walk), email
// addresses and other personal data the log must not keep; the path finds the route.
import type { FastifyRequest } from 'fastify';

const redacted = '[redacted]';

/** `url` with every query value replaced; a parameter without `=` is replaced whole. */
export function redactQueryValues(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((parameter) => {
      const nameEnd = parameter.indexOf('=');
      return nameEnd === -1 ? redacted : `${parameter.slice(0, nameEnd)}=${redacted}`;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}`;
}

/**
 * Fastify's `req` serializer (fastify/lib/logger-pino.js) with the query values redacted
 * (and without Accept-Version, which Coffer does not use).
 */
export function loggableRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactQueryValues(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
