// The harness's clients: a mixed load of money requests over HTTP, each with an
// idempotency key, retried with the same key and body until it is answered, as a careful
// client behind a load balancer would. Every request names its effect (a note, a bank
// name, a reference or a reason equal to its key) so the database can be asked about it.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { issuerSignatureHeaders } from '../../apps/api/src/platform/issuer-signature.ts';
import type { AttemptOutcome, OperationKind, RequestRecord } from './verdict.ts';

/** The instances a load balancer would send to now: those up and healthy. */
export type Cluster = { liveUrls(): string[] };

export type ChaosCustomer = {
  userId: string;
  accountNumber: string;
  cookie: string;
  /** The issuer's token of the customer's card (planted by run.ts). */
  cardToken: string;
  /** The customer's disbursed loan (planted by run.ts), repaid a little at a time. */
  loanId: string;
};

export type ChaosActors = {
  customers: ChaosCustomer[];
  /** Signs what the card processor sends (COFFER_ISSUING_SECRET of every instance). */
  issuingSecret: string;
  /** Records deposits (a second person approves them: four-eyes). */
  supportCookie: string;
  /** Approves deposits, sends and rejects payouts. */
  adminCookie: string;
};

/** Planted for every customer before the load (run.ts): each payout spends one. */
export const chaosStepUpCode = '246810';

/**
 * A step-up code confirms one amount and payee, so every payout is the same amount to the
 * same account and the planted codes match it; its key goes in the bank name, which only
 * describes the account.
 */
export const chaosPayout = {
  method: 'bank',
  holderName: 'Chaos Customer',
  accountNumber: '12345678',
  amount: '2.50',
} as const;

const requestTimeoutMs = 10_000;
const retryDelayMsMax = 2_000;
const attemptsMax = 40;

type Answer = { outcome: AttemptOutcome; body: unknown };

function errorCodeOf(body: unknown): string | undefined {
  return (body as { error?: { code?: string } } | null)?.error?.code;
}

function outcomeOf(status: number, body: unknown): AttemptOutcome {
  if (status >= 200 && status < 300) return 'acked';
  if (status >= 500) return 'unanswered';
  // Another attempt with this key is still running: its outcome is not known yet.
  return errorCodeOf(body) === 'idempotency_in_progress' ? 'unanswered' : 'refused';
}

async function attempt(
  baseUrl: string,
  path: string,
  body: object,
  headers: Record<string, string>,
): Promise<Answer> {
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // A proxy's or a dying server's page: the status still says what happened.
    }
    return { outcome: outcomeOf(response.status, parsed), body: parsed };
  } catch {
    // Refused connection, reset, or no answer in time: the request may or may not have run.
    return { outcome: 'unanswered', body: null };
  }
}

function pickOne<T>(items: readonly T[]): T {
  const item = items[Math.floor(Math.random() * items.length)];
  if (item === undefined) throw new Error('picked from an empty list');
  return item;
}

/**
 * Sends one request until it is answered (acknowledged or refused), with the same key and
 * body every time, to whichever instance is up; gives up after `attemptsMax` attempts or
 * at `giveUpAtMs()`, leaving its outcome unknown.
 */
async function sendUntilAnswered(
  cluster: Cluster,
  request: {
    kind: OperationKind;
    path: string;
    body: object;
    key: string;
    /** Each attempt's headers: a processor signs every one anew, with its time. */
    headers: () => Record<string, string>;
  },
  giveUpAtMs: () => number,
): Promise<{ record: RequestRecord; body: unknown }> {
  const record: RequestRecord = { kind: request.kind, key: request.key, attempts: [] };
  while (record.attempts.length < attemptsMax && Date.now() < giveUpAtMs()) {
    const urls = cluster.liveUrls();
    if (urls.length > 0) {
      const sentAtMs = Date.now();
      const answer = await attempt(pickOne(urls), request.path, request.body, request.headers());
      record.attempts.push(answer.outcome);
      if (answer.outcome === 'refused') record.refusalCode = errorCodeOf(answer.body) ?? 'none';
      if (answer.outcome === 'acked') record.acked = { sentAtMs, atMs: Date.now() };
      if (answer.outcome !== 'unanswered') return { record, body: answer.body };
    }
    await sleep(Math.min(100 * 2 ** record.attempts.length, retryDelayMsMax));
  }
  return { record, body: null };
}

/** An amount in the wallets' currency (USD), as typed. */
function smallAmountOf(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** A random small amount, from a cent to `centsMax`. */
function smallAmount(centsMax: number): string {
  return smallAmountOf(1 + Math.floor(Math.random() * centsMax));
}

function idOf(body: unknown): string | null {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : null;
}

export type LoadResult = { records: RequestRecord[] };

/**
 * Runs `workerCount` clients until `stop` is aborted, then lets their last requests finish
 * (retrying for `retryGraceMs` more). Payouts and deposits that were acknowledged go into
 * queues that the staff operations (send or reject a payout, approve a deposit) draw from.
 * `onAcked` hears of each acknowledgement as it arrives.
 */
export async function runLoad(options: {
  cluster: Cluster;
  actors: ChaosActors;
  workerCount: number;
  stop: AbortSignal;
  retryGraceMs: number;
  onAcked?: (record: RequestRecord) => void;
}): Promise<LoadResult> {
  const { cluster, actors, stop } = options;
  let giveUpAtMs = Number.POSITIVE_INFINITY;
  stop.addEventListener(
    'abort',
    () => {
      giveUpAtMs = Date.now() + options.retryGraceMs;
    },
    { once: true },
  );
  const records: RequestRecord[] = [];
  const pendingPayoutIds: string[] = [];
  const pendingDepositIds: string[] = [];

  /** Sends until answered and records it; the answer's body if it was acknowledged. */
  const sendAs = async (
    kind: OperationKind,
    path: string,
    body: (key: string) => object,
    headers: (key: string, body: object) => () => Record<string, string>,
    key: string = randomUUID(),
  ): Promise<unknown> => {
    const request = body(key);
    const sent = await sendUntilAnswered(
      cluster,
      { kind, path, body: request, key, headers: headers(key, request) },
      () => giveUpAtMs,
    );
    records.push(sent.record);
    if (sent.record.acked) options.onAcked?.(sent.record);
    return sent.record.attempts.at(-1) === 'acked' ? sent.body : null;
  };
  /** A signed-in person's request under an Idempotency-Key (a new one unless given). */
  const send = (
    kind: OperationKind,
    path: string,
    cookie: string,
    body: (key: string) => object,
    key?: string,
  ) => sendAs(kind, path, body, (key) => () => ({ cookie, 'idempotency-key': key }), key);
  /** Repayments so far per loan: the next one pays a cent more than the last. */
  const repaymentCounts = new Map<string, number>();

  const quickPay = () => {
    const sender = pickOne(actors.customers);
    const others = actors.customers.filter((customer) => customer !== sender);
    return send('quick-pay', '/api/v1/transfers', sender.cookie, (key) => ({
      recipient: pickOne(others).accountNumber,
      amount: smallAmount(500),
      note: key,
    }));
  };
  const payout = async () => {
    const customer = pickOne(actors.customers);
    const answer = await send('payout', '/api/v1/payouts', customer.cookie, (key) => ({
      ...chaosPayout,
      bankName: key,
      stepUpCode: chaosStepUpCode,
    }));
    const id = idOf(answer);
    if (id) pendingPayoutIds.push(id);
  };
  const deposit = async () => {
    const customer = pickOne(actors.customers);
    const path = `/api/v1/admin/users/${customer.userId}/deposits`;
    const answer = await send('deposit', path, actors.supportCookie, (key) => ({
      amount: smallAmount(2_000),
      externalReference: key,
      reason: 'Incoming payment (chaos run)',
    }));
    const id = idOf(answer);
    if (id) pendingDepositIds.push(id);
  };
  /** The card processor asks to authorize a purchase; its id (the key) makes retries safe. */
  const cardAuthorization = () => {
    const customer = pickOne(actors.customers);
    return sendAs(
      'card-authorization',
      '/api/v1/issuing/authorizations',
      (key) => ({
        id: key,
        cardToken: customer.cardToken,
        amountMinor: String(1 + Math.floor(Math.random() * 500)),
        currency: 'USD',
        merchant: 'Chaos Corner Shop',
      }),
      (_key, body) => () => issuerSignatureHeaders(actors.issuingSecret, JSON.stringify(body)),
    );
  };
  /**
   * Repays a loan's n-th repayment as n cents: a loan's repayments then differ in amount,
   * so its loan and amount name each one in the database (facts.ts) and in the key.
   */
  const loanRepayment = () => {
    const customer = pickOne(actors.customers);
    const cents = (repaymentCounts.get(customer.loanId) ?? 0) + 1;
    repaymentCounts.set(customer.loanId, cents);
    return send(
      'loan-repayment',
      `/api/v1/loans/${customer.loanId}/repayments`,
      customer.cookie,
      () => ({ amount: smallAmountOf(cents) }),
      `loan-repayment:${customer.loanId}:${cents}`,
    );
  };
  const decidePayout = (payoutId: string) =>
    Math.random() < 0.5
      ? send(
          'payout-send',
          `/api/v1/admin/payouts/${payoutId}/send`,
          actors.adminCookie,
          (key) => ({
            externalReference: key,
          }),
        )
      : send(
          'payout-reject',
          `/api/v1/admin/payouts/${payoutId}/reject`,
          actors.adminCookie,
          (key) => ({ reason: key }),
        );
  const approveDeposit = (requestId: string) =>
    send(
      'deposit-approve',
      `/api/v1/admin/money-requests/${requestId}/approve`,
      actors.adminCookie,
      (key) => ({ reason: key }),
    );

  /** One operation, by weight; staff decide only what is waiting for them. */
  const oneOperation = async () => {
    const roll = Math.random();
    const payoutId = roll >= 0.7 && roll < 0.82 ? pendingPayoutIds.shift() : undefined;
    const depositId = roll >= 0.82 && roll < 0.9 ? pendingDepositIds.shift() : undefined;
    if (payoutId) await decidePayout(payoutId);
    else if (depositId) await approveDeposit(depositId);
    else if (roll < 0.45) await quickPay();
    else if (roll < 0.5) await loanRepayment();
    else if (roll < 0.65) await payout();
    else if (roll < 0.75) await deposit();
    else if (roll >= 0.9) await cardAuthorization();
    else await quickPay();
  };

  const worker = async () => {
    while (!stop.aborted) await oneOperation();
  };
  await Promise.all(Array.from({ length: options.workerCount }, worker));
  return { records };
}
