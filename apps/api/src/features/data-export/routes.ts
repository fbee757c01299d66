import path from 'node:path';
import {
  dataExportOverviewSchema,
  dataExportParamsSchema,
  dataExportSchema,
  dataExportUnlockBodySchema,
  dataExportUnlockSchema,
} from '@coffer/contracts/data-exports';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../platform/access.ts';
import { downloadSchema } from '../../platform/downloads.ts';
import { customerLimits, rateLimits } from '../../platform/rate-limits.ts';
import { kycDocumentsDirectory, localDocumentStorage } from '../kyc/storage.ts';
import {
  buildDueExports,
  dataExportOverview,
  openDownload,
  removeExpiredExports,
  requestDataExport,
  unlockDownload,
} from './service.ts';

/** Looks for exports to build this often (the runner's tick may be longer). */
const buildJobIntervalMs = 5_000;
const expiryJobIntervalMs = 60 * 60 * 1000;

/** The exports' folder inside COFFER_DATA_DIR, beside the identity documents'. */
export function dataExportsDirectory(dataDir: string): string {
  return path.join(dataDir, 'data-exports');
}

/**
 * "Export my data" (issue #34 item 3, ADR 049): the request, the state, the download after
 * the password, and the jobs that build the zips and remove them after seven days.
 */
export const dataExportRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = {
    db: app.db,
    // The KYC documents' storage (encrypted, streamed), in a folder of its own: the KYC
    // clean-up removes files of its folder that no document row records.
    exports: localDocumentStorage(dataExportsDirectory(app.config.dataDir), app.config.secretKeys),
    documents: localDocumentStorage(
      kycDocumentsDirectory(app.config.dataDir),
      app.config.secretKeys,
    ),
    config: app.config,
    site: app.site,
    mailer: app.mailer,
    log: app.log,
  };
  await app.jobs.register({
    name: 'data-export-build',
    intervalMs: buildJobIntervalMs,
    run: (now) => buildDueExports(deps, now),
  });
  await app.jobs.register({
    name: 'data-export-expiry',
    intervalMs: expiryJobIntervalMs,
    run: (now) => removeExpiredExports(deps, now),
  });

  app.get(
    '/data-exports',
    { config: { access: 'customer' }, schema: { response: { 200: dataExportOverviewSchema } } },
    (request) => dataExportOverview(deps, sessionOf(request).userId),
  );

  app.post(
    '/data-exports',
    {
      config: { access: 'customer', customerLimit: customerLimits.dataExportRequest },
      schema: { response: { 202: dataExportSchema } },
    },
    async (request, reply) => {
      const created = await requestDataExport(deps, sessionOf(request), request.ip);
      return reply.code(202).send(created);
    },
  );

  app.post(
    '/data-exports/:exportId/unlock',
    {
      config: { access: 'customer', rateLimit: rateLimits.reauthentication },
      schema: {
        params: dataExportParamsSchema,
        body: dataExportUnlockBodySchema,
        response: { 200: dataExportUnlockSchema },
      },
    },
    (request) =>
      unlockDownload(
        deps,
        sessionOf(request),
        request.params.exportId,
        request.body.currentPassword,
      ),
  );

  app.get(
    '/data-exports/:exportId/download',
    {
      config: { access: 'customer' },
      schema: { params: dataExportParamsSchema, response: { 200: downloadSchema } },
    },
    async (request, reply) => {
      const download = await openDownload(
        deps,
        sessionOf(request),
        request.params.exportId,
        request.ip,
      );
      reply.header('cache-control', 'no-store');
      reply.header('content-type', 'application/zip');
      reply.header('content-length', download.sizeBytes.toString());
      reply.header('content-disposition', `attachment; filename="${download.fileName}"`);
      return reply.send(download.stream);
    },
  );
};
