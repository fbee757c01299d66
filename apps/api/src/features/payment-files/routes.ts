import {
  cardSettlementBytesMax,
  cardSettlementDayQuerySchema,
  cardSettlementImportSchema,
  createPayoutBatchBodySchema,
  payoutBatchListSchema,
  payoutBatchSchema,
  reconciliationItemSchema,
  reconciliationListQuerySchema,
  reconciliationListSchema,
  resolveReconciliationBodySchema,
  statementBytesMax,
  statementImportSchema,
} from '@coffer/contracts/payment-files';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { staffActionOf, staffRoutesOf } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { downloadSchema } from '../../platform/downloads.ts';
import { createPayoutBatch, downloadPayoutBatch, payoutBatches } from './batches.ts';
import { importCardSettlements, sandboxSettlementFile } from './card-settlements.ts';
import { importStatement, reconciliationItems, resolveItem } from './statements.ts';

const batchParams = z.object({ batchId: z.uuid() });
const itemParams = z.object({ itemId: z.uuid() });
const statementContentTypes = ['application/xml', 'text/xml'];
const settlementContentType = 'text/csv';

/**
 * The raw bytes of an uploaded file sent as one of `types`; anything else (JSON, the other
 * kind of payment file) is refused with the type it should have been.
 */
function fileBytes(
  request: { headers: { 'content-type'?: string | undefined }; body: unknown },
  types: string[],
  what: string,
): Buffer {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!types.includes(type) || !Buffer.isBuffer(request.body)) {
    throw new AppError('unsupported_media_type', { message: `Send ${what}` });
  }
  return request.body;
}

/**
 * Payment files (issue #30 item 5, docs/OPERATIONS.md "Payment files and reconciliation"):
 * admins send pending bank payouts as one batch file (marking them sent, as sending one
 * by hand is theirs); staff import the bank's camt.053 statements and work the
 * reconciliation queue.
 */
export const paymentFileRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  const deps = { db: app.db, ledger: app.ledger, config: app.config };

  // A statement arrives as the file's bytes, which the parser checks itself (BOM, UTF-8).
  app.addContentTypeParser(
    statementContentTypes,
    { parseAs: 'buffer', bodyLimit: statementBytesMax },
    (_request, body, done) => done(null, body),
  );
  // A card settlement file likewise: its parser refuses a BOM, semicolons and the rest.
  app.addContentTypeParser(
    settlementContentType,
    { parseAs: 'buffer', bodyLimit: cardSettlementBytesMax },
    (_request, body, done) => done(null, body),
  );

  staffOnly.get(
    '/admin/payout-batches',
    { config: { access: 'staff' }, schema: { response: { 200: payoutBatchListSchema } } },
    async () => ({ items: await payoutBatches(deps) }),
  );

  staffOnly.post(
    '/admin/payout-batches',
    {
      config: { access: 'admin' },
      schema: { body: createPayoutBatchBodySchema, response: { 201: payoutBatchSchema } },
    },
    async (request, reply) => {
      const batch = await createPayoutBatch(
        deps,
        app.site.institutionName,
        request.body.payoutIds,
        staffActionOf(request, ''),
      );
      return reply.status(201).send(batch);
    },
  );

  staffOnly.get(
    '/admin/payout-batches/:batchId/file',
    {
      config: { access: 'admin' },
      schema: { params: batchParams, response: { 200: downloadSchema } },
    },
    async (request, reply) => {
      const { batch, previousDownloads } = await downloadPayoutBatch(
        deps,
        request.params.batchId,
        staffActionOf(request, ''),
      );
      const isXml = batch.format === 'pain.001';
      reply.header('cache-control', 'no-store');
      reply.header(
        'content-disposition',
        `attachment; filename="${batch.reference}.${isXml ? 'xml' : 'csv'}"`,
      );
      // From the second download on: the payouts were sent when it was first downloaded.
      reply.header('x-coffer-previous-downloads', String(previousDownloads));
      return reply
        .type(isXml ? 'application/xml; charset=utf-8' : 'text/csv; charset=utf-8; header=present')
        .send(batch.file_text);
    },
  );

  staffOnly.post(
    '/admin/bank-statements',
    {
      config: { access: 'staff' },
      bodyLimit: statementBytesMax,
      schema: { response: { 201: statementImportSchema } },
    },
    async (request, reply) => {
      const bytes = fileBytes(
        request,
        statementContentTypes,
        'the camt.053 file’s bytes as application/xml.',
      );
      const imported = await importStatement(deps, bytes, staffActionOf(request, ''));
      return reply.status(201).send(imported);
    },
  );

  staffOnly.post(
    '/admin/card-settlements',
    {
      config: { access: 'staff' },
      bodyLimit: cardSettlementBytesMax,
      schema: {
        querystring: cardSettlementDayQuerySchema,
        response: { 201: cardSettlementImportSchema },
      },
    },
    async (request, reply) => {
      const bytes = fileBytes(
        request,
        [settlementContentType],
        'the settlement file’s bytes as text/csv.',
      );
      const imported = await importCardSettlements(
        deps,
        request.query.day,
        bytes,
        staffActionOf(request, ''),
      );
      return reply.status(201).send(imported);
    },
  );

  // The sandbox issuer's settlement file of a day, as a real processor's portal gives one.
  staffOnly.get(
    '/admin/card-settlements/sandbox-file',
    {
      config: { access: 'staff' },
      schema: { querystring: cardSettlementDayQuerySchema, response: { 200: downloadSchema } },
    },
    async (request, reply) => {
      if (!app.config.isSandbox) throw new AppError('not_found');
      const { day } = request.query;
      reply.header('cache-control', 'no-store');
      reply.header('content-disposition', `attachment; filename="card-settlements-${day}.csv"`);
      return reply
        .type('text/csv; charset=utf-8; header=present')
        .send(await sandboxSettlementFile(deps, day));
    },
  );

  staffOnly.get(
    '/admin/reconciliation',
    {
      config: { access: 'staff' },
      schema: {
        querystring: reconciliationListQuerySchema,
        response: { 200: reconciliationListSchema },
      },
    },
    async (request) => ({ items: await reconciliationItems(deps, request.query.status) }),
  );

  staffOnly.post(
    '/admin/reconciliation/:itemId/resolve',
    {
      config: { access: 'staff' },
      schema: {
        params: itemParams,
        body: resolveReconciliationBodySchema,
        response: { 200: reconciliationItemSchema },
      },
    },
    (request) =>
      resolveItem(
        deps,
        request.params.itemId,
        request.body,
        staffActionOf(request, request.body.note),
      ),
  );
};
