import { errorCodes } from '@coffer/contracts/errors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { declarePublicFiles } from './access.ts';

/** Only the JSON API is described: the web app's pages and files are not part of it. */
export const apiPrefix = '/api/v1';
export const openApiDocumentPath = '/api/openapi.json';
export const apiReferencePath = '/api/docs';

const zodToOpenApi = createJsonSchemaTransform({});

/** Groups operations by capability: `/api/v1/payouts` → payouts, staff routes apart. */
function tagOf(url: string): string {
  const [first = '', second = ''] = url.slice(apiPrefix.length + 1).split('/');
  return first === 'admin' ? `staff: ${second}` : first;
}

/** The header every money route requires (docs/IDEMPOTENCY.md). */
const idempotencyKeyHeader = {
  type: 'object',
  properties: {
    'idempotency-key': {
      type: 'string',
      pattern: '^[\\x21-\\x7e]{1,255}$',
      description:
        'One key per intended operation: a retry with the same key and body replays the first answer.',
    },
  },
  required: ['idempotency-key'],
};

/** Every error code the API answers with, its HTTP status and the words people see. */
function errorCodeTable(): string {
  const rows = Object.entries(errorCodes).map(
    ([code, { status, message }]) =>
      `| \`${code}\` | ${status} | ${message.replaceAll('|', '\\|')} |`,
  );
  return ['| code | status | meaning (the message shown) |', '| --- | --- | --- |', ...rows].join(
    '\n',
  );
}

const description = `Coffer's JSON API. Every route's input and output is described from the same zod
schemas the server validates with. Amounts are strings of minor units.

Sign in with \`POST ${apiPrefix}/auth/login\`: the session is a cookie. Unsafe requests
from another origin are refused. Money-moving requests need an \`Idempotency-Key\` header
(docs/IDEMPOTENCY.md).

Every error has one shape: \`{"error": {"code", "message", "fields"?}}\`.

${errorCodeTable()}`;

/**
 * The OpenAPI 3.1 document, generated from the registered routes' zod schemas (so a new
 * route is in it without anyone listing it), served at /api/openapi.json; and Swagger UI
 * at /api/docs, its files served from our own origin under the same CSP as the app.
 * Must be registered before the routes it describes: it collects them as they are added.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Coffer API', version: '1', description },
    },
    transform: (route) => {
      const transformed = zodToOpenApi(route);
      if (!route.url.startsWith(`${apiPrefix}/`)) {
        return { ...transformed, schema: { ...transformed.schema, hide: true } };
      }
      const schema: Record<string, unknown> = { ...transformed.schema, tags: [tagOf(route.url)] };
      if (route.route.config?.isIdempotent) schema.headers = idempotencyKeyHeader;
      return { ...transformed, schema };
    },
  });
  app.get(openApiDocumentPath, { config: { access: 'public', ignoresSession: true } }, () =>
    app.swagger(),
  );
  await app.register(async (docs) => {
    declarePublicFiles(docs);
    await docs.register(swaggerUi, {
      routePrefix: apiReferencePath,
      // The validator badge would send the document to a third-party service; the base
      // layout has no "explore another URL" bar.
      uiConfig: { validatorUrl: null, layout: 'BaseLayout' },
      theme: { title: 'Coffer API reference' },
      staticCSP: false,
    });
  });
}
