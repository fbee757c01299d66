import type { Writable } from 'node:stream';
import type { Language } from '@coffer/contracts/languages';
import type { Site } from '@coffer/contracts/site';
import type { Terms } from '@coffer/contracts/terms';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Approvals } from './approvals/approvals.ts';
import type { Config, TrustProxy } from './config.ts';
import type { Database } from './db/client.ts';
import { accountClosureRoutes } from './features/account-closure/routes.ts';
import { adminRoutes } from './features/admin/routes.ts';
import { auditRoutes } from './features/audit/routes.ts';
import { authRoutes } from './features/auth/routes.ts';
import { billRoutes } from './features/bills/routes.ts';
import { booksRoutes } from './features/books/routes.ts';
import { bulkPaymentRoutes } from './features/bulk-payments/routes.ts';
import { cardRoutes, issuingRoutes } from './features/cards/routes.ts';
import { dataExportRoutes } from './features/data-export/routes.ts';
import { depositRoutes } from './features/deposits/routes.ts';
import { devMailRoutes } from './features/dev-mail/routes.ts';
import { disputeRoutes } from './features/disputes/routes.ts';
import { eventRoutes } from './features/events/routes.ts';
import { exchangeRoutes } from './features/exchange/routes.ts';
import { healthRoutes, probeRoutes } from './features/health/routes.ts';
import { kycRoutes } from './features/kyc/routes.ts';
import { loanRoutes } from './features/loans/routes.ts';
import { notificationRoutes } from './features/notifications/routes.ts';
import { payeeRoutes } from './features/payees/routes.ts';
import { paymentFileRoutes } from './features/payment-files/routes.ts';
import { payoutRoutes } from './features/payouts/routes.ts';
import { profileRoutes } from './features/profile/routes.ts';
import { reportRoutes } from './features/reports/routes.ts';
import { scheduledPaymentRoutes } from './features/scheduled-payments/routes.ts';
import { siteRoutes } from './features/site/routes.ts';
import { loadSite, siteIn } from './features/site/site.ts';
import { staffHomeRoutes } from './features/staff-home/routes.ts';
import { statementRoutes } from './features/statements/routes.ts';
import { stepUpRoutes } from './features/step-up/routes.ts';
import { supportRoutes } from './features/support/routes.ts';
import { termsRoutes } from './features/terms/routes.ts';
import { sandboxSampleTerms } from './features/terms/sandbox-terms.ts';
import { transferRoutes } from './features/transfers/routes.ts';
import { walletRoutes } from './features/wallet/routes.ts';
import { webhookRoutes } from './features/webhooks/routes.ts';
import { hourlyTotalsJob } from './ledger/hourly-totals.ts';
import { createLedger, type Ledger } from './ledger/ledger.ts';
import { StepUpPrechecks } from './money-out/step-up-prechecks.ts';
import { type RegisteredRoute, registerAccessControl } from './platform/access.ts';
import { assert } from './platform/assert.ts';
import {
  answerClientError,
  answerFrameworkError,
  registerErrorHandler,
} from './platform/error-handler.ts';
import { serializeErrorForLog } from './platform/error-logging.ts';
import { type EventHub, startEventHub } from './platform/events.ts';
import { registerHousekeeping } from './platform/housekeeping.ts';
import { registerIdempotencyKeyCheck } from './platform/idempotency.ts';
import { createJobRunner, type JobRunner } from './platform/jobs.ts';
import { type Mailer, startMailer } from './platform/mail.ts';
import { createMetrics, type Metrics } from './platform/metrics.ts';
import { registerOpenApi } from './platform/openapi.ts';
import { sharedRateLimitStore } from './platform/rate-limits.ts';
import { loggableRequest } from './platform/request-logging.ts';
import { registerSecurityHeaders } from './platform/security-headers.ts';
import { registerWebApp } from './platform/web-app.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    ledger: Ledger;
    mailer: Mailer;
    /** The operator's description of their institution (emails), as their file writes it. */
    site: Site;
    /** The same in a language: its texts where the file has them in it (public pages). */
    siteIn: (language: Language) => Site;
    /**
     * The terms and privacy notice customers must have accepted: the site file's, in the
     * sandbox a sample where it has none; null where there are none to accept.
     */
    terms: Terms | null;
    /** Every route with its access declaration, for the route-coverage tests. */
    registeredRoutes: RegisteredRoute[];
    /** Live events from every API process (LISTEN/NOTIFY), for the SSE streams. */
    eventHub: EventHub;
    /** The end functions of the open SSE streams, ended before the server closes. */
    openStreams: Set<() => void>;
    /** The one scheduled-jobs runner; main.ts starts it, tests call `runDue`. */
    jobs: JobRunner;
    /** What each money feature checks before a step-up code is sent for its payments. */
    stepUpPrechecks: StepUpPrechecks;
    /** What each feature whose staff postings wait for approval does once one is decided. */
    approvals: Approvals;
    /** This instance's Prometheus metrics; main.ts serves them on COFFER_METRICS_PORT. */
    metrics: Metrics;
  }
}

export const requestBodySizeMaxBytes = 1024 * 1024;
/**
 * The longest a request may take to arrive, body included (Node's own default, which
 * Fastify turns off): without it a client that sends part of a body and waits holds the
 * connection, and for an upload an open file, forever. A 10 MB document needs 35 KB/s.
 * Responses (event streams) are not limited by it.
 */
const requestArrivalMaxMs = 5 * 60 * 1000;

/**
 * Fastify's `trustProxy` for the configured proxies. Fastify 5 ignores a bare hop count
 * (it cannot tell a proxy from a client talking to the server directly), so a count
 * becomes a function that trusts that many hops from the socket: an operator who counts
 * also promises that only the proxy can reach Coffer (docs/OPERATIONS.md).
 */
function fastifyTrustProxy(trustProxy: TrustProxy) {
  if (trustProxy === false) return false;
  if ('addresses' in trustProxy) return trustProxy.addresses;
  const { hopCount } = trustProxy;
  return (_address: string, hop: number) => hop < hopCount;
}

/** Builds the server from its plugins. It does not listen: tests call `inject`. */
export async function buildApp(options: {
  config: Config;
  db: Database;
  /** Where the log goes: standard output unless a test reads it. */
  logStream?: Writable;
}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: options.config.logLevel,
      // Errors lose the values a failed statement carried (platform/error-logging.ts), and
      // request URLs their query values (platform/request-logging.ts).
      serializers: { err: serializeErrorForLog, req: loggableRequest },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    bodyLimit: requestBodySizeMaxBytes,
    requestTimeout: requestArrivalMaxMs,
    // Without a trusted proxy the socket's address is the client's. Everything that keys on
    // an address (limits, throttles, audit, sessions) reads `request.ip`, which this sets.
    trustProxy: fastifyTrustProxy(options.config.trustProxy),
    return503OnClosing: true,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const registeredRoutes: RegisteredRoute[] = [];
  app.decorate('config', options.config);
  app.decorate('db', options.db);
  app.decorate('ledger', createLedger(options.db));
  app.decorate('registeredRoutes', registeredRoutes);
  const siteFile = loadSite(options.config.siteFile, { isSandbox: options.config.isSandbox });
  const { terms, translations: _translations, ...site } = siteFile;
  app.decorate('site', site);
  app.decorate('siteIn', (language: Language) => siteIn(siteFile, language));
  app.decorate('terms', terms ?? (options.config.isSandbox ? sandboxSampleTerms : null));
  const metrics = createMetrics(app);
  app.decorate('metrics', metrics);
  app.decorate('jobs', createJobRunner(options.db, app.log, metrics.countJobFailure));
  await registerHousekeeping(app);
  await app.jobs.register(hourlyTotalsJob(options.db, app.log));
  app.decorate('stepUpPrechecks', new StepUpPrechecks());
  app.decorate('approvals', new Approvals());
  app.addHook('onReady', async () => {
    const missing = app.stepUpPrechecks.missing();
    assert(missing.length === 0, `no step-up precheck registered for ${missing.join(', ')}`);
    const unregistered = app.approvals.missing();
    assert(unregistered.length === 0, `no approval callbacks for ${unregistered.join(', ')}`);
  });

  registerErrorHandler(app);
  // An answer sent before the request has arrived whole (refused by access, a limit, a
  // route that does not exist, an upload's checks) closes the connection: Node would read
  // and discard the rest of the body, which a visitor can make endless. (Injected test
  // requests have no `complete`: their bodies are given whole.)
  app.addHook('onSend', async (request, reply) => {
    if (request.raw.complete === false) reply.header('connection', 'close');
  });
  await app.register(cookie);
  await app.register(rateLimit, { global: false, store: sharedRateLimitStore(options.db) });
  registerAccessControl(app, registeredRoutes);
  registerIdempotencyKeyCheck(app);
  const mailer = startMailer({
    db: options.db,
    smtpUrl: options.config.smtpUrl,
    from: options.config.mailFrom,
    isSandbox: options.config.isSandbox,
    log: app.log,
  });
  app.decorate('mailer', mailer);
  app.addHook('onClose', () => mailer.stop());
  const eventHub = await startEventHub(options.db, app.log);
  app.decorate('eventHub', eventHub);
  app.decorate('openStreams', new Set<() => void>());
  // Open streams would keep the server from closing: end them first.
  app.addHook('preClose', async () => {
    for (const end of [...app.openStreams]) end();
    await eventHub.close();
  });
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine sets inline style attributes; scripts stay strictly same-origin.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // HSTS only means something when people reach Coffer over HTTPS.
    hsts: options.config.isHttps ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true } : false,
  });

  await registerOpenApi(app);
  await app.register(probeRoutes, { prefix: '/api' });
  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(adminRoutes);
      await api.register(authRoutes);
      await api.register(siteRoutes);
      await api.register(termsRoutes);
      await api.register(profileRoutes);
      await api.register(accountClosureRoutes);
      await api.register(auditRoutes);
      await api.register(depositRoutes);
      await api.register(eventRoutes);
      await api.register(stepUpRoutes);
      await api.register(payeeRoutes);
      await api.register(bulkPaymentRoutes);
      await api.register(walletRoutes);
      await api.register(transferRoutes);
      await api.register(exchangeRoutes);
      await api.register(payoutRoutes);
      await api.register(billRoutes);
      await api.register(scheduledPaymentRoutes);
      await api.register(statementRoutes);
      await api.register(kycRoutes);
      await api.register(dataExportRoutes);
      await api.register(loanRoutes);
      await api.register(notificationRoutes);
      await api.register(disputeRoutes);
      await api.register(supportRoutes);
      await api.register(staffHomeRoutes);
      await api.register(booksRoutes);
      await api.register(paymentFileRoutes);
      await api.register(reportRoutes);
      await api.register(cardRoutes);
      await api.register(issuingRoutes);
      await api.register(webhookRoutes);
      if (options.config.isSandbox) await api.register(devMailRoutes);
    },
    { prefix: '/api/v1' },
  );

  await registerWebApp(app, options.config.webDistDir);
  return app;
}
