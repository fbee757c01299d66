import { Readable } from 'node:stream';
import {
  resolveStatementPeriod,
  statementFileName,
  statementQuerySchema,
  statementSchema,
} from '@coffer/contracts/statements';
import { todayIn } from '@coffer/contracts/time-zones';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { sessionOf } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { storedLanguage } from '../../platform/languages.ts';
import { statementCsv } from './csv.ts';
import { statementPdf } from './pdf.ts';
import { openStatement, statementAccountOf, statementPreview } from './service.ts';

/** A CSV or PDF download: written out as it is produced, never serialized as JSON. */
const downloadSchema = z.custom<Readable>((value) => value instanceof Readable);

export const statementRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/statements',
    {
      config: { access: 'customer' },
      schema: {
        querystring: statementQuerySchema,
        response: { 200: z.union([statementSchema, downloadSchema]) },
      },
    },
    async (request, reply) => {
      const { format, walletId, ...range } = request.query;
      const { userId } = sessionOf(request);
      const account = await statementAccountOf(app.db, userId, app.config, walletId);
      // Days are the customer's: the 1st in Tokyo starts at 15:00 UTC on the 31st.
      const resolved = resolveStatementPeriod(range, todayIn(account.timeZone));
      if (!('period' in resolved)) {
        throw new AppError('validation_failed', {
          message: resolved.message,
          fields: { [resolved.field]: resolved.message },
        });
      }
      const source = await openStatement(
        app.db,
        { ...account, ownerUserId: userId },
        resolved.period,
      );
      // A statement is private and changes as money moves: never cache it.
      reply.header('cache-control', 'no-store');
      if (format === 'json') return statementPreview(source);
      // Written in the customer's language, as their emails are (ADR 055).
      const language = await storedLanguage(app.db, { userId });
      const fileName = statementFileName(resolved.period, format);
      reply.header('content-disposition', `attachment; filename="${fileName}"`);
      if (format === 'csv') {
        return reply
          .type('text/csv; charset=utf-8; header=present')
          .send(Readable.from(statementCsv(source, { isSandbox: app.config.isSandbox, language })));
      }
      return reply.type('application/pdf').send(
        statementPdf(source, {
          institutionName: app.site.institutionName,
          isSandbox: app.config.isSandbox,
          language,
        }),
      );
    },
  );
};
