import { Readable } from 'node:stream';
import {
  bulkPaymentIdParamsSchema,
  bulkPaymentListSchema,
  bulkPaymentSchema,
  confirmBulkPaymentBodySchema,
} from '@coffer/contracts/bulk-payments';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { sessionOf, staffRoutesOf } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { downloadSchema } from '../../platform/downloads.ts';
import { replyIdempotent } from '../../platform/idempotency.ts';
import { languageOf } from '../../platform/languages.ts';
import { customerLimits } from '../../platform/rate-limits.ts';
import { startBulkPayer } from './payer.ts';
import {
  bulkPaymentOf,
  bulkPaymentsOf,
  bulkResultCsv,
  checkBulkFile,
  confirmBulkPayment,
  precheckBulkPayment,
  prepareBulkConfirmation,
} from './service.ts';

const csvContentType = 'text/csv';
/**
 * What the route reads of an upload: ten times the largest file we take, so that a file a
 * little too large gets the clear "larger than 2 MB" of `checkBulkFile` instead of the
 * server's generic refusal; beyond it the connection is refused as any other huge body.
 */
const uploadReadBytesMax = 32 * 1024 * 1024;
const userParams = z.object({ userId: z.uuid() });

/**
 * Bulk payments from a CSV file (issue #32 item 3, ADR 044): upload (checked whole,
 * nothing paid), confirm the total with a step-up code, then the payer pays the lines;
 * the result downloads as CSV. Staff read a customer's files on the customer's page.
 */
export const bulkPaymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  const deps = {
    db: app.db,
    ledger: app.ledger,
    config: app.config,
    mailer: app.mailer,
    site: app.site,
  };
  const payer = startBulkPayer({ db: app.db, events: app.eventHub, config: app.config }, app.log, {
    isOn: app.config.isBulkPayerOn,
  });
  app.addHook('onClose', () => payer.stop());
  app.stepUpPrechecks.register(
    'bulk_payment',
    async (session, intended) =>
      (await precheckBulkPayment(deps, session, intended.bulkPaymentId)).toConfirm,
  );

  // The file arrives as its bytes, which the checks decode themselves (BOM, UTF-8).
  app.addContentTypeParser(
    csvContentType,
    { parseAs: 'buffer', bodyLimit: uploadReadBytesMax },
    (_request, body, done) => done(null, body),
  );

  app.get(
    '/bulk-payments',
    { config: { access: 'customer' }, schema: { response: { 200: bulkPaymentListSchema } } },
    (request) => bulkPaymentsOf(deps, sessionOf(request).userId),
  );

  app.post(
    '/bulk-payments',
    {
      config: { access: 'customer', customerLimit: customerLimits.bulkPaymentUpload },
      schema: { response: { 201: bulkPaymentSchema } },
    },
    async (request, reply) => {
      const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      if (type !== csvContentType || !Buffer.isBuffer(request.body)) {
        throw new AppError('unsupported_media_type', { message: 'Send the file as text/csv' });
      }
      const checked = await checkBulkFile(deps, sessionOf(request), request.body);
      return reply.status(201).send(checked);
    },
  );

  app.get(
    '/bulk-payments/:bulkPaymentId',
    {
      config: { access: 'customer' },
      schema: { params: bulkPaymentIdParamsSchema, response: { 200: bulkPaymentSchema } },
    },
    (request) => bulkPaymentOf(deps, sessionOf(request).userId, request.params.bulkPaymentId),
  );

  // Idempotent as every money route: a retried confirm (a dropped answer) gets the first
  // one's answer under its key instead of "confirmed already".
  app.post(
    '/bulk-payments/:bulkPaymentId/confirm',
    {
      config: { access: 'customer', isIdempotent: true, customerLimit: customerLimits.quickPay },
      schema: {
        params: bulkPaymentIdParamsSchema,
        body: confirmBulkPaymentBodySchema,
        response: { 200: bulkPaymentSchema },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const answered = await replyIdempotent(
        request,
        reply,
        `customer:${session.userId}`,
        async (tx, confirmation) => ({
          status: 200,
          body: await confirmBulkPayment(deps, tx, session, confirmation),
        }),
        () =>
          prepareBulkConfirmation(
            deps,
            session,
            request.params.bulkPaymentId,
            request.body.stepUpCode,
          ),
      );
      payer.kick();
      return answered;
    },
  );

  app.get(
    '/bulk-payments/:bulkPaymentId/result',
    {
      config: { access: 'customer' },
      schema: { params: bulkPaymentIdParamsSchema, response: { 200: downloadSchema } },
    },
    async (request, reply) => {
      const { userId } = sessionOf(request);
      const { bulkPaymentId } = request.params;
      // Read before answering: another customer's file is a 404, not an empty download.
      await bulkPaymentOf(deps, userId, bulkPaymentId);
      reply.header('cache-control', 'no-store');
      reply.header(
        'content-disposition',
        `attachment; filename="bulk-payment-${bulkPaymentId}.csv"`,
      );
      return reply
        .type('text/csv; charset=utf-8; header=present')
        .send(Readable.from(bulkResultCsv(deps, userId, bulkPaymentId, languageOf(request))));
    },
  );

  staffOnly.get(
    '/admin/users/:userId/bulk-payments',
    {
      config: { access: 'staff' },
      schema: { params: userParams, response: { 200: bulkPaymentListSchema } },
    },
    (request) => bulkPaymentsOf(deps, request.params.userId),
  );
};
