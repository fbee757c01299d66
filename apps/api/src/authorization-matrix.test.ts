// Every API route, called by each kind of caller, gets the answer it should: a route
// missing from this table fails the suite, so no route ships without a decision.
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.ts';
import { usd } from '../test/factories.ts';
import { signedUpClient, staffClient, TestClient } from '../test/http.ts';
import type { Database } from './db/client.ts';
import { findCustomerWallet } from './ledger/wallets.ts';
import { newId } from './platform/ids.ts';
import { createSession } from './platform/sessions.ts';

type Actor = 'visitor' | 'customerA' | 'customerB' | 'support' | 'admin';
/** 'ok' means the caller got past access control (any answer but 401, 403, 404 or 5xx). */
type Expected = 'ok' | 401 | 403 | 404;
type Row = Record<Actor, Expected>;

const everyone: Row = {
  visitor: 'ok',
  customerA: 'ok',
  customerB: 'ok',
  support: 'ok',
  admin: 'ok',
};
const signedIn: Row = {
  visitor: 401,
  customerA: 'ok',
  customerB: 'ok',
  support: 'ok',
  admin: 'ok',
};
const staff: Row = { visitor: 401, customerA: 404, customerB: 404, support: 'ok', admin: 'ok' };
const adminOnly: Row = { visitor: 401, customerA: 404, customerB: 404, support: 403, admin: 'ok' };
const customersOnly: Row = {
  visitor: 401,
  customerA: 'ok',
  customerB: 'ok',
  support: 403,
  admin: 403,
};
/** Customer A's own resource: anyone else is told it does not exist. */
const ownedByA: Row = { visitor: 401, customerA: 'ok', customerB: 404, support: 404, admin: 404 };
/** Customer A's own resource on a customer route: other customers are told it does not exist. */
const customerAOnly: Row = {
  visitor: 401,
  customerA: 'ok',
  customerB: 404,
  support: 403,
  admin: 403,
};

/** The issuing processor's routes: only a valid signature gets in, never a session. */
const signedByIssuer: Row = {
  visitor: 401,
  customerA: 401,
  customerB: 401,
  support: 401,
  admin: 401,
};

const matrix: Record<string, Row> = {
  'GET /api/v1/health': everyone,
  'GET /api/health/live': everyone,
  'GET /api/health/ready': everyone,
  'GET /api/v1/public/site': everyone,
  'GET /api/v1/public/terms': everyone,
  'POST /api/v1/terms/acceptance': customersOnly,
  'GET /api/v1/dev/mail': everyone,
  'POST /api/v1/auth/signup': everyone,
  'POST /api/v1/auth/login': everyone,
  'POST /api/v1/auth/login/second-factor': everyone,
  // Passkeys (ADR 046): signing in with one is for visitors; another user's passkey is
  // not found (passkeys.test.ts), which a literal :passkeyId here cannot show.
  'POST /api/v1/auth/passkey/options': everyone,
  'POST /api/v1/auth/passkey/sign-in': everyone,
  'POST /api/v1/auth/login/second-factor/passkey-options': everyone,
  'POST /api/v1/auth/login/second-factor/passkey': everyone,
  'GET /api/v1/profile/passkeys': signedIn,
  'POST /api/v1/profile/passkeys/options': signedIn,
  'POST /api/v1/profile/passkeys': signedIn,
  'PATCH /api/v1/profile/passkeys/:passkeyId': signedIn,
  'POST /api/v1/profile/passkeys/:passkeyId/remove': signedIn,
  'POST /api/v1/auth/logout': everyone,
  'GET /api/v1/auth/session': everyone,
  'POST /api/v1/auth/verify-email': everyone,
  'POST /api/v1/auth/forgot-password': everyone,
  'POST /api/v1/auth/reset-password': everyone,
  'GET /api/v1/auth/me': signedIn,
  'POST /api/v1/auth/resend-verification': signedIn,
  'GET /api/v1/profile': signedIn,
  'PATCH /api/v1/profile/username': signedIn,
  'PATCH /api/v1/profile/time-zone': signedIn,
  'PUT /api/v1/profile/language': signedIn,
  'POST /api/v1/profile/email': signedIn,
  'POST /api/v1/profile/password': signedIn,
  'POST /api/v1/profile/totp/setup': signedIn,
  'POST /api/v1/profile/totp/enable': signedIn,
  'POST /api/v1/profile/totp/disable': signedIn,
  'GET /api/v1/profile/sessions': signedIn,
  'DELETE /api/v1/profile/sessions/:sessionId': ownedByA,
  'POST /api/v1/profile/sessions/revoke-others': signedIn,
  'GET /api/v1/profile/activity': signedIn,
  'GET /api/v1/admin/ledger-health': adminOnly,
  'GET /api/v1/admin/users': staff,
  'GET /api/v1/admin/users/:userId': staff,
  'GET /api/v1/admin/users/:userId/transactions': staff,
  'GET /api/v1/admin/users/:userId/money-requests': staff,
  'GET /api/v1/admin/users/:userId/bulk-payments': staff,
  'POST /api/v1/admin/users/:userId/freeze': adminOnly,
  'POST /api/v1/admin/users/:userId/unfreeze': adminOnly,
  'POST /api/v1/admin/users/:userId/level': adminOnly,
  'POST /api/v1/admin/users/:userId/role': adminOnly,
  'POST /api/v1/admin/users/:userId/deposits': staff,
  'POST /api/v1/admin/users/:userId/adjustments': staff,
  'GET /api/v1/admin/queues/deposits': staff,
  'POST /api/v1/admin/money-requests/:requestId/approve': adminOnly,
  'POST /api/v1/admin/money-requests/:requestId/reject': adminOnly,
  // Support prepared the matrix's request: support cancels it, or finds it decided (409).
  'POST /api/v1/admin/money-requests/:requestId/cancel': staff,
  'POST /api/v1/admin/users/:userId/role-grant/approve': adminOnly,
  'POST /api/v1/admin/users/:userId/role-grant/reject': adminOnly,
  'GET /api/v1/admin/audit': staff,
  'GET /api/v1/admin/books/trial-balance': staff,
  'GET /api/v1/admin/books/alerts': staff,
  // Every line of every account: the admin's alone.
  'GET /api/v1/admin/books/journal.csv': adminOnly,
  'GET /api/v1/admin/reports': staff,
  // Batch files mark payouts sent, as sending one by hand does: the admin's.
  'GET /api/v1/admin/payout-batches': staff,
  'POST /api/v1/admin/payout-batches': adminOnly,
  'GET /api/v1/admin/payout-batches/:batchId/file': adminOnly,
  'POST /api/v1/admin/bank-statements': staff,
  'POST /api/v1/admin/card-settlements': staff,
  'GET /api/v1/admin/card-settlements/sandbox-file': staff,
  'GET /api/v1/admin/reconciliation': staff,
  'POST /api/v1/admin/reconciliation/:itemId/resolve': staff,
  'GET /api/v1/events': customersOnly,
  'GET /api/v1/admin/events': staff,
  'POST /api/v1/step-up/challenges': customersOnly,
  'POST /api/v1/step-up/passkey-options': customersOnly,
  'GET /api/v1/payees': customersOnly,
  'POST /api/v1/payees': customersOnly,
  'PATCH /api/v1/payees/:payeeId': customersOnly,
  'DELETE /api/v1/payees/:payeeId': customersOnly,
  'GET /api/v1/scheduled-payments': customersOnly,
  'POST /api/v1/scheduled-payments': customersOnly,
  'PATCH /api/v1/scheduled-payments/:scheduleId': customersOnly,
  'POST /api/v1/scheduled-payments/:scheduleId/pause': customersOnly,
  'POST /api/v1/scheduled-payments/:scheduleId/resume': customersOnly,
  'POST /api/v1/scheduled-payments/:scheduleId/cancel': customersOnly,
  'GET /api/v1/bulk-payments': customersOnly,
  'POST /api/v1/bulk-payments': customersOnly,
  'GET /api/v1/bulk-payments/:bulkPaymentId': customersOnly,
  'POST /api/v1/bulk-payments/:bulkPaymentId/confirm': customersOnly,
  'GET /api/v1/bulk-payments/:bulkPaymentId/result': customersOnly,
  'POST /api/v1/bill-payments': customersOnly,
  'GET /api/v1/bill-payments': customersOnly,
  'GET /api/v1/statements': customersOnly,
  'GET /api/v1/payouts/terms': customersOnly,
  'GET /api/v1/payouts': customersOnly,
  'POST /api/v1/payouts': customersOnly,
  'GET /api/v1/admin/queues/payouts': staff,
  'GET /api/v1/admin/users/:userId/payouts': staff,
  'POST /api/v1/admin/payouts/:payoutId/send': adminOnly,
  'POST /api/v1/admin/payouts/:payoutId/reject': adminOnly,
  'GET /api/v1/wallet': customersOnly,
  'GET /api/v1/wallets': customersOnly,
  'POST /api/v1/wallets': customersOnly,
  'GET /api/v1/exchange/rates': customersOnly,
  'POST /api/v1/exchange/quotes': customersOnly,
  // Another customer's quote id answers 404 (exchange.test.ts); here the id is no uuid.
  'POST /api/v1/exchange/quotes/:quoteId/accept': customersOnly,
  'GET /api/v1/admin/exchange/rates': staff,
  // Changing what every customer pays is an admin's (markups.test.ts checks the answers).
  'PUT /api/v1/admin/exchange/markups/:pair': adminOnly,
  'DELETE /api/v1/admin/exchange/markups/:pair': adminOnly,
  'GET /api/v1/admin/users/:userId/wallets': staff,
  'GET /api/v1/wallet/transactions': customersOnly,
  'GET /api/v1/wallet/balance-history': customersOnly,
  'GET /api/v1/wallet/spending': customersOnly,
  'GET /api/v1/wallet/deposits': customersOnly,
  'GET /api/v1/wallet/allowances': customersOnly,
  'GET /api/v1/wallet/test-money': customersOnly,
  'POST /api/v1/wallet/test-money': customersOnly,
  'POST /api/v1/transfers/recipient-preview': customersOnly,
  'POST /api/v1/transfers': customersOnly,
  'GET /api/v1/transfers': customersOnly,
  'GET /api/v1/kyc': customersOnly,
  'POST /api/v1/kyc/documents': customersOnly,
  'POST /api/v1/kyc/submissions': customersOnly,
  'GET /api/v1/admin/queues/kyc': staff,
  'GET /api/v1/admin/users/:userId/kyc': staff,
  'GET /api/v1/admin/kyc/:submissionId/document': staff,
  'POST /api/v1/admin/kyc/:submissionId/approve': staff,
  'POST /api/v1/admin/kyc/:submissionId/reject': staff,
  'GET /api/v1/notifications': signedIn,
  'POST /api/v1/notifications/:notificationId/read': ownedByA,
  'POST /api/v1/notifications/read-all': signedIn,
  'GET /api/v1/notifications/email-setting': signedIn,
  'PATCH /api/v1/notifications/email-setting': signedIn,
  'POST /api/v1/disputes': customersOnly,
  'GET /api/v1/disputes': customersOnly,
  'GET /api/v1/disputes/transactions': customersOnly,
  'GET /api/v1/disputes/transactions/:entryId': customerAOnly,
  'GET /api/v1/disputes/:disputeId': customerAOnly,
  'GET /api/v1/admin/queues/disputes': staff,
  'GET /api/v1/admin/users/:userId/disputes': staff,
  'GET /api/v1/admin/disputes/:reference': staff,
  'POST /api/v1/admin/disputes/:disputeId/investigate': staff,
  'POST /api/v1/admin/disputes/:disputeId/reject': staff,
  'POST /api/v1/admin/disputes/:disputeId/resolve': staff,
  'GET /api/v1/support/thread': customersOnly,
  'GET /api/v1/support/unread': customersOnly,
  'POST /api/v1/support/thread/read': customersOnly,
  'POST /api/v1/support/messages': customersOnly,
  'GET /api/v1/admin/queues/support': staff,
  'GET /api/v1/admin/users/:userId/support': staff,
  'POST /api/v1/admin/users/:userId/support': staff,
  'PUT /api/v1/admin/users/:userId/support/assignee': staff,
  'POST /api/v1/admin/users/:userId/support/resolve': staff,
  'GET /api/v1/admin/queues': staff,
  // The OpenAPI document and its reference page (Swagger UI's files) describe the API to anyone.
  'GET /api/openapi.json': everyone,
  'GET /api/docs': everyone,
  'GET /api/docs/json': everyone,
  'GET /api/docs/yaml': everyone,
  'GET /api/docs/static/index.html': everyone,
  'GET /api/docs/static/swagger-initializer.js': everyone,
  'GET /api/docs/static/*': everyone,
  'GET /api/v1/cards': customersOnly,
  'POST /api/v1/cards': customersOnly,
  'GET /api/v1/cards/:cardId/authorizations': customerAOnly,
  'POST /api/v1/cards/:cardId/cancel': customerAOnly,
  'POST /api/v1/cards/:cardId/freeze': customerAOnly,
  'POST /api/v1/cards/:cardId/unfreeze': customerAOnly,
  'POST /api/v1/cards/simulated-purchases': customersOnly,
  'GET /api/v1/admin/queues/cards': staff,
  'GET /api/v1/admin/users/:userId/cards': staff,
  'GET /api/v1/admin/cards/:cardId/authorizations': staff,
  'POST /api/v1/admin/cards/:cardId/issue': adminOnly,
  'POST /api/v1/admin/cards/:cardId/decline': adminOnly,
  'POST /api/v1/admin/cards/:cardId/freeze': staff,
  'POST /api/v1/admin/cards/:cardId/unfreeze': staff,
  'POST /api/v1/issuing/authorizations': signedByIssuer,
  'POST /api/v1/issuing/settlements': signedByIssuer,
  'GET /api/v1/loans': customersOnly,
  'POST /api/v1/loans': customersOnly,
  'POST /api/v1/loans/assessment-request': customersOnly,
  // The body is checked before the loan is looked up, so B's empty body is a 400 here;
  // loans.test.ts shows another customer's loan answers 404.
  'POST /api/v1/loans/:loanId/repayments': customersOnly,
  'PUT /api/v1/loans/:loanId/auto-repay': customersOnly,
  'GET /api/v1/admin/queues/loans': staff,
  'GET /api/v1/admin/queues/loans/assessments': staff,
  'GET /api/v1/admin/queues/loans/to-disburse': staff,
  'GET /api/v1/admin/users/:userId/loans': staff,
  'PUT /api/v1/admin/users/:userId/loan-eligibility': staff,
  'POST /api/v1/admin/users/:userId/loan-assessment/decline': staff,
  'POST /api/v1/admin/loans/:loanId/approve': adminOnly,
  'POST /api/v1/admin/loans/:loanId/decline': adminOnly,
  'POST /api/v1/admin/loans/:loanId/disburse': staff,
  'GET /api/v1/admin/webhooks': adminOnly,
  'POST /api/v1/admin/webhooks': adminOnly,
  'POST /api/v1/admin/webhooks/:endpointId/secret': adminOnly,
  'POST /api/v1/admin/webhooks/:endpointId/enable': adminOnly,
  'POST /api/v1/admin/webhooks/:endpointId/disable': adminOnly,
  'DELETE /api/v1/admin/webhooks/:endpointId': adminOnly,
  'GET /api/v1/admin/webhooks/:endpointId/deliveries': adminOnly,
  'POST /api/v1/admin/webhooks/:endpointId/deliveries/:deliveryId/replay': adminOnly,
  'GET /api/v1/admin/webhooks/alerts': staff,
  // Export my data (ADR 049): customer A's export, still building, answers A past access
  // (409) and anyone else not found. The unlock's empty body is refused (400) before the
  // export is looked up; another's export is not found there too (data-export.test.ts).
  'GET /api/v1/data-exports': customersOnly,
  'POST /api/v1/data-exports': customersOnly,
  'POST /api/v1/data-exports/:exportId/unlock': customersOnly,
  'GET /api/v1/data-exports/:exportId/download': customerAOnly,
  // A customer's own account only (the session names it); '{}' is a 400 for the customer.
  'GET /api/v1/account-closure': customersOnly,
  'POST /api/v1/account-closure': customersOnly,
  'GET /api/v1/admin/users/:userId/closure': staff,
  'POST /api/v1/admin/users/:userId/reopenings': adminOnly,
  // A literal :reopeningId is no uuid (400); account-closure.test.ts decides real ones.
  'POST /api/v1/admin/account-reopenings/:reopeningId/approve': adminOnly,
  'POST /api/v1/admin/account-reopenings/:reopeningId/reject': adminOnly,
  'POST /api/v1/admin/account-reopenings/:reopeningId/cancel': adminOnly,
};

/**
 * The three spellings of one request target that must get the same answer: the plain path;
 * the same path with a letter percent-encoded (the router decodes it, so it is the same
 * route); and the absolute form `http://host/path` (RFC 9112 section 3.2.2), which the
 * router also accepts. Access must follow the route matched, never the text.
 */
const targetSpellings = {
  plain: (path: string) => path,
  'encoded first segment': (path: string) => path.replace(/^\/a/, '/%61'),
  'encoded route segment': (path: string) =>
    path.replace(/^(\/api\/v1\/)([a-z])/, (_match, prefix: string, letter: string) => {
      return `${prefix}%${letter.charCodeAt(0).toString(16)}`;
    }),
  'absolute form': (path: string) => `${baseUrl}${path}`,
} as const;
type Spelling = keyof typeof targetSpellings;

/**
 * @fastify/static finds a file by the raw request target's prefix, so the documentation's
 * files asked for as `/%61pi/…` or `http://host/api/…` are not found (a JSON 404: nothing is
 * refused, and no HTML stands in for the file), though the router matched their public route.
 */
function isFileUnderOtherSpelling(route: string, spelling: Spelling): boolean {
  const isRawTargetChanged = spelling === 'encoded first segment' || spelling === 'absolute form';
  return route === 'GET /api/docs/static/*' && isRawTargetChanged;
}

/**
 * One request over real HTTP with the request target exactly as given (inject would
 * normalise it). Streams are hung up on once their head has arrived.
 */
function rawRequest(options: {
  method: string;
  target: string;
  cookie: string | undefined;
  idempotencyKey: string;
}): Promise<{ statusCode: number; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  const body = ['POST', 'PATCH', 'PUT'].includes(options.method) ? '{}' : '';
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        hostname,
        port,
        method: options.method,
        path: options.target,
        headers: {
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
          'content-length': String(Buffer.byteLength(body)),
          'idempotency-key': options.idempotencyKey,
        },
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        if (response.headers['content-type']?.startsWith('text/event-stream')) {
          response.destroy();
          resolve({ statusCode, body: '' });
          return;
        }
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ statusCode, body }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

let db: Database;
let app: FastifyInstance;
const userIdOf: Partial<Record<Actor, string>> = {};
let pendingRequestId: string;
/** Customer A's own notification, dispute … : the ids other callers must not reach. */
const idsOfA: Record<string, string> = {};
let baseUrl: string;

useTestApp(
  async (opened) => {
    ({ app, db } = opened);
    const customerA = await signedUpClient(app);
    const customerB = await signedUpClient(app);
    const support = await staffClient(app, 'support');
    const admin = await staffClient(app, 'admin');
    userIdOf.customerA = customerA.user.id;
    userIdOf.customerB = customerB.user.id;
    userIdOf.support = support.user.id;
    userIdOf.admin = admin.user.id;
    const pending = await support.client.post(
      `/api/v1/admin/users/${customerA.user.id}/deposits`,
      { amount: '1.00', reason: 'matrix' },
      { 'idempotency-key': 'matrix-pending' },
    );
    pendingRequestId = pending.json().id;
    idsOfA.notificationId = newId();
    await db.query(
      "INSERT INTO notifications (id, user_id, kind, text) VALUES ($1, $2, 'money_received', 'matrix')",
      [idsOfA.notificationId, customerA.user.id],
    );
    const dispute = await customerA.client.post('/api/v1/disputes', {
      kind: 'general',
      amount: '1.00',
      recipientAccountNumber: '1234567890',
      problemType: 'other',
      description: 'matrix',
    });
    idsOfA.disputeId = dispute.json().id;
    idsOfA.reference = dispute.json().reference;
    // A deposit into customer A's wallet: a transaction of A's that a dispute may name.
    const walletOfA = await findCustomerWallet(db, customerA.user.id);
    const settlement = await app.ledger.systemAccount('settlement', usd);
    idsOfA.entryId = (
      await app.ledger.post({
        kind: 'deposit',
        memo: 'matrix',
        lines: [
          { accountId: settlement, amountMinor: -100n },
          { accountId: walletOfA?.id ?? settlement, amountMinor: 100n },
        ],
      })
    ).entryId;
    // Customer A's card request, left requested: the matrix only needs an id of A's.
    idsOfA.cardId = newId();
    await db.query(
      `INSERT INTO cards (id, user_id, account_id, holder_name, currency, fee_minor, weekly_limit_minor)
       SELECT $1, $2, a.id, 'A', a.currency, 0, 100 FROM accounts a WHERE a.owner_user_id = $2`,
      [idsOfA.cardId, customerA.user.id],
    );
    idsOfA.loanId = newId();
    await db.query(
      `INSERT INTO loans (id, user_id, currency, amount_minor, monthly_salary_minor, months,
                          annual_rate_bp, full_name, phone, address)
       VALUES ($1, $2, 'USD', 10000, 100000, 12, 1200, 'Matrix', '1', 'Matrix street')`,
      [idsOfA.loanId, customerA.user.id],
    );
    idsOfA.exportId = (await customerA.client.post('/api/v1/data-exports')).json().id;
    // Customer A's support thread, which staff assign and resolve.
    await customerA.client.post('/api/v1/support/messages', { body: 'matrix' });
    // Level 2, where loans start: the assessment request otherwise answers the level's 403.
    await db.query('UPDATE users SET level = 2 WHERE id = ANY($1::uuid[])', [
      [customerA.user.id, customerB.user.id],
    ]);
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  },
  { env: { COFFER_SANDBOX: '1' } },
);

/** A fresh signed-in client per call, so one call's side effects (logout) do not leak. */
async function clientFor(actor: Actor): Promise<TestClient> {
  const client = new TestClient(app);
  const userId = userIdOf[actor];
  if (userId) {
    const { token } = await createSession(db, {
      userId,
      userAgent: 'matrix',
      ipAddress: '127.0.0.1',
    });
    client.cookie = `coffer_session=${token}`;
  }
  return client;
}

/**
 * The route's path with real ids of customer A's. A session id is a fresh session each
 * time: a successful revocation by one call must not change the answer of the next.
 */
async function concreteUrl(url: string): Promise<string> {
  const sessionId = url.includes(':sessionId')
    ? (
        await createSession(db, {
          userId: userIdOf.customerA ?? '',
          userAgent: 'matrix target',
          ipAddress: '127.0.0.1',
        })
      ).sessionId
    : '';
  return url
    .replace(':sessionId', sessionId)
    .replace(':userId', userIdOf.customerA ?? '')
    .replace(':requestId', pendingRequestId)
    .replace('/static/*', '/static/swagger-ui.css')
    .replace(
      /:(notificationId|disputeId|reference|cardId|loanId|entryId|exportId)/,
      (_match, name: string) => idsOfA[name] ?? '',
    );
}

describe('authorization matrix', () => {
  it('has a row for every registered API route, and no row for a route that does not exist', () => {
    const registered = app.registeredRoutes
      .filter((route) => route.url.startsWith('/api/'))
      .map((route) => `${route.method} ${route.url}`);
    expect(registered.filter((route) => !(route in matrix))).toEqual([]);
    expect(Object.keys(matrix).filter((route) => !registered.includes(route))).toEqual([]);
  });

  for (const [route, row] of Object.entries(matrix)) {
    it(`${route}`, async () => {
      const [method, url] = route.split(' ') as [string, string];
      for (const [spelling, spell] of Object.entries(targetSpellings) as [
        Spelling,
        (path: string) => string,
      ][]) {
        for (const actor of Object.keys(row) as Actor[]) {
          const target = spell(await concreteUrl(url));
          const client = await clientFor(actor);
          const response = await rawRequest({
            method,
            target,
            cookie: client.cookie,
            idempotencyKey: `matrix-${actor}-${spelling}-${route}`,
          });
          const expected = row[actor];
          const outcome = `${actor}, ${spelling} ${target} → ${response.statusCode} ${response.body.slice(0, 120)}`;
          if (isFileUnderOtherSpelling(route, spelling)) {
            expect(response.statusCode, outcome).toBe(404);
          } else if (expected === 'ok') {
            expect([401, 403, 404], outcome).not.toContain(response.statusCode);
            expect(response.statusCode, outcome).toBeLessThan(500);
          } else {
            expect(response.statusCode, outcome).toBe(expected);
          }
        }
      }
    });
  }
});
