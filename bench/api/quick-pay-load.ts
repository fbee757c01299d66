// Quick Pay over real HTTP: autocannon keeps N keep-alive connections busy with
// POST /api/v1/transfers, each request with an idempotency key of its own.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import type { TransactionLog } from '../shared/measure.ts';
import type { Customer } from './seed.ts';

export type SignedInCustomer = Customer & { cookie: string };

export type QuickPayRun = {
  /** The transfers the API accepted (2xx), each with its completion time and latency. */
  log: TransactionLog;
  /** Every response of the run by status code, refusals included. */
  statusCounts: Record<string, number>;
  connectionErrors: number;
  timeouts: number;
};

export const transfersPath = '/api/v1/transfers';
// 0.01–2.00: far below the step-up threshold and, over any run, the daily limit.
const amountMinorMax = 200;
const responseTimeoutSeconds = 10;

function randomIndex(count: number): number {
  return Math.floor(Math.random() * count);
}

function randomAmount(): string {
  const amountMinor = 1 + randomIndex(amountMinorMax);
  return `${Math.floor(amountMinor / 100)}.${String(amountMinor % 100).padStart(2, '0')}`;
}

/** A Quick Pay request from `sender` to another customer picked at random. */
function quickPayRequest(customers: SignedInCustomer[], senderIndex: number) {
  const sender = customers[senderIndex];
  let recipientIndex = randomIndex(customers.length - 1);
  if (recipientIndex >= senderIndex) recipientIndex += 1;
  const recipient = customers[recipientIndex];
  if (!sender || !recipient) throw new Error('sender and recipient must be customers');
  return {
    headers: {
      cookie: sender.cookie,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({ recipient: recipient.accountNumber, amount: randomAmount() }),
  };
}

/** One transfer before the load, so that a missing or broken route fails the run at once. */
export async function sendOneTransfer(baseUrl: string, customers: SignedInCustomer[]) {
  const request = quickPayRequest(customers, 0);
  const response = await fetch(`${baseUrl}${transfersPath}`, { method: 'POST', ...request });
  if (!response.ok) {
    throw new Error(`POST ${transfersPath} answered ${response.status}: ${await response.text()}`);
  }
}

/**
 * Senders are spread over the connections: connection c sends for customers c, c + N,
 * c + 2N … in turn, so no two connections ever lock the same sender's wallet; recipients
 * are any other customer.
 */
function sendersOf(connection: number, connections: number, customerCount: number): number[] {
  const senders: number[] = [];
  for (let index = connection; index < customerCount; index += connections) senders.push(index);
  return senders.length > 0 ? senders : [connection % customerCount];
}

export function runQuickPayLoad(options: {
  baseUrl: string;
  customers: SignedInCustomer[];
  connections: number;
  seconds: number;
}): Promise<QuickPayRun> {
  const { customers, connections } = options;
  const log: TransactionLog = { endsMs: [], latenciesMs: [] };
  const statusCounts: Record<string, number> = {};
  let nextConnection = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: options.baseUrl,
        connections,
        duration: options.seconds,
        timeout: responseTimeoutSeconds,
        setupClient(client) {
          const senders = sendersOf(nextConnection, connections, customers.length);
          nextConnection += 1;
          let turn = 0;
          client.setRequests([
            {
              method: 'POST',
              path: transfersPath,
              setupRequest(request) {
                const senderIndex = senders[turn % senders.length] ?? 0;
                turn += 1;
                return { ...request, ...quickPayRequest(customers, senderIndex) };
              },
            },
          ]);
          client.on('response', (statusCode, _bytes, responseTimeMs) => {
            statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
            if (statusCode < 200 || statusCode >= 300) return;
            log.endsMs.push(performance.now());
            log.latenciesMs.push(responseTimeMs);
          });
        },
      },
      (error, result) => {
        if (error) reject(error);
        else
          resolve({
            log,
            statusCounts,
            connectionErrors: result.errors,
            timeouts: result.timeouts,
          });
      },
    );
  });
}
