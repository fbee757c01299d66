// A real HTTP receiver for webhook deliveries (node:http on 127.0.0.1), and the delivery
// job run at a moment a test chooses.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { deliveryJobName } from '../src/features/webhooks/delivery.ts';
import type { TestClient } from './http.ts';

export type ReceivedDelivery = { headers: Record<string, string>; body: string; path: string };

/** What the receiver does with the n-th request (0-based) it gets. */
export type Answer = (
  request: ReceivedDelivery,
  index: number,
  response: http.ServerResponse,
) => void;

export const answerWith =
  (status: number, body = ''): Answer =>
  (_request, _index, response) => {
    response.writeHead(status, { 'content-type': 'text/plain' }).end(body);
  };

export type Receiver = {
  url: string;
  port: number;
  received: ReceivedDelivery[];
  close(): Promise<void>;
};

export async function startReceiver(answer: Answer): Promise<Receiver> {
  const received: ReceivedDelivery[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const delivery: ReceivedDelivery = {
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
        path: request.url ?? '/',
      };
      received.push(delivery);
      // A client that hangs up mid-answer (the 10 MB one) is no error of the receiver's.
      response.on('error', () => {});
      answer(delivery, received.length - 1, response);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Runs the delivery job, and only it, as the runner would at `now`: its schedule is made
 * due first, so a test may run it again at once or "tomorrow".
 */
export async function runDeliveries(app: FastifyInstance, now = new Date()): Promise<void> {
  await app.db.query(
    `UPDATE scheduled_jobs SET next_run_at = '-infinity'::timestamptz WHERE name = $1`,
    [deliveryJobName],
  );
  const ran = await app.jobs.runDue(now, [deliveryJobName]);
  if (!ran.includes(deliveryJobName)) throw new Error('the delivery job did not run');
  const failed = await app.db.query<{ last_error: string | null }>(
    'SELECT last_error FROM scheduled_jobs WHERE name = $1',
    [deliveryJobName],
  );
  const error = failed.rows[0]?.last_error;
  if (error) throw new Error(`the delivery job failed: ${error}`);
}

/** Registers an endpoint through the admin API; answers it and its secret, shown once. */
export async function registerWebhook(
  admin: TestClient,
  url: string,
  eventTypes: string[] = ['money.deposit', 'money.transfer'],
): Promise<{ id: string; secret: string }> {
  const created = await admin.post('/api/v1/admin/webhooks', { url, eventTypes });
  if (created.statusCode !== 201) throw new Error(`registration failed: ${created.body}`);
  const body = created.json();
  return { id: body.endpoint.id, secret: body.secret };
}

export const minutesLater = (from: Date, minutes: number) =>
  new Date(from.getTime() + minutes * 60 * 1000);
