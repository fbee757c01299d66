import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { deposit, usd } from '../../../test/factories.ts';
import { staffClient, type TestClient } from '../../../test/http.ts';
import { quickPay } from '../../../test/transfers.ts';
import {
  answerWith,
  minutesLater,
  type Receiver,
  registerWebhook,
  runDeliveries,
  startReceiver,
} from '../../../test/webhooks.ts';
import { sweepOldRows } from '../../platform/housekeeping.ts';

let app: FastifyInstance;
let admin: TestClient;
const receivers: Receiver[] = [];

useTestApp(
  async (opened) => {
    ({ app } = opened);
    admin = (await staffClient(app, 'admin')).client;
  },
  { env: { COFFER_WEBHOOKS_ALLOW_PRIVATE: '1' }, checksAfterEach: 'ledger' },
);

afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
  // Each test's endpoints end with it, so the next test's postings reach its own only.
  await app.db.query('DELETE FROM webhook_deliveries');
  await app.db.query('DELETE FROM webhook_endpoints');
});

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
}

async function deliveriesOf(endpointId: string) {
  const listed = await admin.get(`/api/v1/admin/webhooks/${endpointId}/deliveries`);
  expect(listed.statusCode).toBe(200);
  return listed.json().items as {
    id: string;
    eventId: string;
    status: string;
    attemptCount: number;
    attempts: {
      statusCode: number | null;
      error: string | null;
      responseHead: string;
      durationMs: number;
    }[];
  }[];
}

async function fund(customer: TestCustomer, amountMinor: bigint) {
  await deposit(app.ledger, customer.wallet.id, amountMinor);
}

describe('webhook deliveries', () => {
  it('retries a receiver that fails three times, then delivers once it acknowledges, signed', async () => {
    const failingThrice = await receiver((_request, index, response) =>
      answerWith(index < 3 ? 500 : 200, index < 3 ? 'not yet' : 'thanks')(
        _request,
        index,
        response,
      ),
    );
    const endpoint = await registerWebhook(admin, failingThrice.url, ['money.deposit']);
    expect(endpoint.secret).toMatch(/^whsec_/);
    const customer = await createCustomer(app);
    await fund(customer, 12_345n);

    let now = new Date();
    for (let run = 0; run < 4; run += 1) {
      await runDeliveries(app, now);
      now = minutesLater(now, 10);
    }
    // Acknowledged: the job sends it no more.
    await runDeliveries(app, minutesLater(now, 120));

    expect(failingThrice.received).toHaveLength(4);
    const ids = new Set(failingThrice.received.map((one) => one.headers['webhook-id']));
    expect(ids.size).toBe(1);
    const last = failingThrice.received[3];
    if (!last) throw new Error('no fourth request');
    const payload = new Webhook(endpoint.secret).verify(last.body, last.headers) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(payload.type).toBe('money.deposit');
    expect(payload.data).toMatchObject({
      kind: 'deposit',
      customerId: customer.user.id,
      accountNumber: customer.wallet.number,
      amountMinor: '12345',
      currency: 'USD',
    });
    // Another secret's signature does not verify: the check can fail.
    expect(() =>
      new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(last.body, last.headers),
    ).toThrow();

    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery?.status).toBe('delivered');
    expect(delivery?.attemptCount).toBe(4);
    expect(delivery?.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 500, 500, 200]);
    expect(delivery?.attempts.map((attempt) => attempt.responseHead)).toEqual([
      'not yet',
      'not yet',
      'not yet',
      'thanks',
    ]);
  });

  it('writes an event for each wallet a Quick Pay moves, signed amounts, in its transaction', async () => {
    const acknowledging = await receiver(answerWith(204));
    await registerWebhook(admin, acknowledging.url, ['money.transfer']);
    const payer = await createCustomer(app, { balance: '50.00' });
    const payee = await createCustomer(app);
    const paid = await quickPay(payer.client, { recipient: payee.wallet.number, amount: '12.50' });
    expect(paid.statusCode).toBe(201);
    // A refused payment moves nothing and tells nobody.
    const refused = await quickPay(payer.client, {
      recipient: payee.wallet.number,
      amount: '999.00',
    });
    expect(refused.statusCode).toBe(409);

    await runDeliveries(app);
    const byCustomer = Object.fromEntries(
      acknowledging.received.map((one) => {
        const { data } = JSON.parse(one.body);
        return [data.customerId, data.amountMinor];
      }),
    );
    expect(byCustomer).toEqual({ [payer.user.id]: '-1250', [payee.user.id]: '1250' });
  });

  it('writes nothing for an entry whose transaction rolls back', async () => {
    const acknowledging = await receiver(answerWith(200));
    const endpoint = await registerWebhook(admin, acknowledging.url, ['money.deposit']);
    const customer = await createCustomer(app);
    const settlement = await app.ledger.systemAccount('settlement', usd);
    const rolledBack = new Error('rolled back after the posting');
    await expect(
      app.db.transaction(async (tx) => {
        await app.ledger.post(
          {
            kind: 'deposit',
            memo: 'never committed',
            lines: [
              { accountId: settlement, amountMinor: -600n },
              { accountId: customer.wallet.id, amountMinor: 600n },
            ],
          },
          tx,
        );
        const written = await tx.query('SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1', [
          endpoint.id,
        ]);
        // Inside the transaction the delivery is there, with its entry.
        expect(written.rows).toHaveLength(1);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    await runDeliveries(app);
    expect(await deliveriesOf(endpoint.id)).toEqual([]);
    expect(acknowledging.received).toEqual([]);
  });

  it('sends a delivery written within the runner’s millisecond, whose microseconds are later', async () => {
    const quick = await receiver(answerWith(200, 'ok'));
    await registerWebhook(admin, quick.url, ['money.deposit']);
    await fund(await createCustomer(app), 100n);
    const runAt = new Date(Date.now() + 1000);
    // Due 999 microseconds into the runner's millisecond.
    await app.db.query('UPDATE webhook_deliveries SET next_attempt_at = $1', [
      runAt.toISOString().replace('Z', '999Z'),
    ]);
    await runDeliveries(app, runAt);
    expect(quick.received).toHaveLength(1);
  });

  it('keeps each customer’s events in order, without holding back another customer’s', async () => {
    // The first request fails; every later one is acknowledged.
    const failingOnce = await receiver((request, index, response) =>
      answerWith(index === 0 ? 503 : 200)(request, index, response),
    );
    const endpoint = await registerWebhook(admin, failingOnce.url, ['money.deposit']);
    const first = await createCustomer(app);
    const second = await createCustomer(app);
    await fund(first, 100n);
    await fund(first, 200n);
    await fund(second, 300n);

    const now = new Date();
    await runDeliveries(app, now);
    const amounts = () =>
      failingOnce.received.map((one) => JSON.parse(one.body).data.amountMinor as string);
    // The first customer's first event failed; their second waits behind it, the other
    // customer's goes.
    expect(amounts()).toEqual(['100', '300']);
    await runDeliveries(app, now);
    expect(amounts()).toEqual(['100', '300']);

    await runDeliveries(app, minutesLater(now, 5));
    await runDeliveries(app, minutesLater(now, 5));
    expect(amounts()).toEqual(['100', '300', '100', '200']);
    expect((await deliveriesOf(endpoint.id)).map((one) => one.status)).toEqual([
      'delivered',
      'delivered',
      'delivered',
    ]);
  });

  it('does not let a slow or a huge answer hold back other deliveries', async () => {
    const silent = await receiver(() => {
      // Never answers: the attempt ends at the 5-second limit.
    });
    const hugeSizeBytes = 10 * 1024 * 1024;
    let hugeBytesWritten = 0;
    const huge = await receiver((_request, _index, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const write = () => {
        while (hugeBytesWritten < hugeSizeBytes) {
          hugeBytesWritten += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', write);
            return;
          }
        }
        response.end();
      };
      write();
    });
    const quick = await receiver(answerWith(200, 'ok'));
    const slowEndpoint = await registerWebhook(admin, silent.url, ['money.deposit']);
    const hugeEndpoint = await registerWebhook(admin, huge.url, ['money.deposit']);
    const quickEndpoint = await registerWebhook(admin, quick.url, ['money.deposit']);
    const customer = await createCustomer(app);
    await fund(customer, 500n);

    await runDeliveries(app);

    const [quickDelivery] = await deliveriesOf(quickEndpoint.id);
    expect(quickDelivery?.status).toBe('delivered');
    const [hugeDelivery] = await deliveriesOf(hugeEndpoint.id);
    expect(hugeDelivery?.status).toBe('delivered');
    expect(hugeDelivery?.attempts[0]?.responseHead).toBe('x'.repeat(1024));
    // The answer was not read whole: the connection closed long before its end.
    expect(hugeBytesWritten).toBeLessThan(hugeSizeBytes);
    const [slowDelivery] = await deliveriesOf(slowEndpoint.id);
    expect(slowDelivery?.status).toBe('pending');
    expect(slowDelivery?.attempts[0]).toMatchObject({
      statusCode: null,
      error: 'no answer within 5 s',
    });
  });

  it('signs with the old secret beside the new one for a day after a roll', async () => {
    const acknowledging = await receiver(answerWith(200));
    const endpoint = await registerWebhook(admin, acknowledging.url, ['money.deposit']);
    const rolled = await admin.post(`/api/v1/admin/webhooks/${endpoint.id}/secret`);
    expect(rolled.statusCode).toBe(200);
    const newSecret = rolled.json().secret as string;
    expect(newSecret).not.toBe(endpoint.secret);
    const customer = await createCustomer(app);
    await fund(customer, 700n);

    await runDeliveries(app);
    const [signed] = acknowledging.received;
    if (!signed) throw new Error('nothing delivered');
    expect(signed.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(endpoint.secret).verify(signed.body, signed.headers)).toBeTruthy();
    expect(new Webhook(newSecret).verify(signed.body, signed.headers)).toBeTruthy();

    // A day later the old one signs no more.
    await fund(customer, 800n);
    await runDeliveries(app, minutesLater(new Date(), 25 * 60));
    const later = acknowledging.received[1];
    if (!later) throw new Error('nothing delivered the next day');
    expect(later.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(() => new Webhook(endpoint.secret).verify(later.body, later.headers)).toThrow();
    expect(new Webhook(newSecret).verify(later.body, later.headers)).toBeTruthy();
  });

  it('turns off an endpoint that has failed for 24 hours, gives its deliveries up, and warns staff', async () => {
    const failing = await receiver(answerWith(500, 'down'));
    const endpoint = await registerWebhook(admin, failing.url, ['money.deposit']);
    const customer = await createCustomer(app);
    await fund(customer, 900n);
    const support = (await staffClient(app, 'support')).client;
    const alerts = async () =>
      (await support.get('/api/v1/admin/webhooks/alerts')).json().items as { id: string }[];

    const start = new Date();
    await runDeliveries(app, start);
    await runDeliveries(app, minutesLater(start, 23 * 60));
    expect((await admin.get('/api/v1/admin/webhooks')).json().items[0].status).toBe('enabled');
    expect(await alerts()).toEqual([]);

    await runDeliveries(app, minutesLater(start, 24 * 60 + 1));
    const listed = (await admin.get('/api/v1/admin/webhooks')).json().items[0];
    expect(listed).toMatchObject({ status: 'disabled', disabledReason: 'failing' });
    expect((await alerts()).map((alert) => alert.id)).toEqual([endpoint.id]);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery?.status).toBe('failed');
    const audit = await app.db.query<{ actor_user_id: string | null }>(
      "SELECT actor_user_id FROM audit_events WHERE action = 'webhook_endpoint_disabled' AND after->>'endpointId' = $1",
      [endpoint.id],
    );
    expect(audit.rows).toEqual([{ actor_user_id: null }]);

    // Turned off, it is sent nothing more until an admin turns it on.
    const sent = failing.received.length;
    await fund(customer, 100n);
    await runDeliveries(app, minutesLater(start, 26 * 60));
    expect(failing.received).toHaveLength(sent);
    expect((await admin.post(`/api/v1/admin/webhooks/${endpoint.id}/enable`)).statusCode).toBe(200);
    expect(await alerts()).toEqual([]);
  });
});

describe('webhook history', () => {
  it('is removed 30 days after it finished, attempts and events with it; pending deliveries stay', async () => {
    const acknowledging = await receiver(answerWith(200));
    const delivered = await registerWebhook(admin, acknowledging.url, ['money.deposit']);
    const waiting = await registerWebhook(admin, acknowledging.url, ['money.deposit']);
    await admin.post(`/api/v1/admin/webhooks/${waiting.id}/disable`);
    // Turned off after the posting: its delivery stays pending, never attempted.
    await app.db.query("UPDATE webhook_endpoints SET status = 'enabled' WHERE id = $1", [
      waiting.id,
    ]);
    const customer = await createCustomer(app);
    await fund(customer, 400n);
    await app.db.query("UPDATE webhook_endpoints SET status = 'disabled' WHERE id = $1", [
      waiting.id,
    ]);
    await runDeliveries(app);
    const counts = async () =>
      (
        await app.db.query<{ deliveries: number; attempts: number; events: number }>(
          `SELECT (SELECT count(*)::int FROM webhook_deliveries) AS deliveries,
                  (SELECT count(*)::int FROM webhook_attempts) AS attempts,
                  (SELECT count(*)::int FROM webhook_events) AS events`,
        )
      ).rows[0];
    const before = await counts();
    expect((await deliveriesOf(delivered.id))[0]?.status).toBe('delivered');
    const periods = app.config.housekeeping;

    await sweepOldRows(app.db, periods, minutesLater(new Date(), 29 * 24 * 60));
    expect(await counts()).toEqual(before);

    await sweepOldRows(app.db, periods, minutesLater(new Date(), 31 * 24 * 60));
    const after = await counts();
    expect(after?.deliveries).toBe((before?.deliveries ?? 0) - 1);
    expect(after?.attempts).toBe((before?.attempts ?? 0) - 1);
    expect(await deliveriesOf(delivered.id)).toEqual([]);
    // The event both deliveries were of stays while the pending one needs it.
    const [pending] = await deliveriesOf(waiting.id);
    expect(pending?.status).toBe('pending');
    const event = await app.db.query('SELECT 1 FROM webhook_events WHERE id = $1', [
      pending?.eventId,
    ]);
    expect(event.rows).toHaveLength(1);
    // Events no delivery needs any more went.
    const unneeded = await app.db.query(
      `SELECT 1 FROM webhook_events ev
        WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ev.id)`,
    );
    expect(unneeded.rows).toEqual([]);
  });
});

describe('webhook endpoints (admin)', () => {
  it('is the admin’s alone: support is refused, a customer is told it does not exist', async () => {
    const support = (await staffClient(app, 'support')).client;
    const customer = await createCustomer(app);
    const body = { url: 'https://hooks.example.com/coffer', eventTypes: ['money.deposit'] };
    expect((await support.get('/api/v1/admin/webhooks')).statusCode).toBe(403);
    expect((await support.post('/api/v1/admin/webhooks', body)).statusCode).toBe(403);
    expect((await customer.client.get('/api/v1/admin/webhooks')).statusCode).toBe(404);
    expect((await customer.client.post('/api/v1/admin/webhooks', body)).statusCode).toBe(404);
    const created = await admin.post('/api/v1/admin/webhooks', body);
    expect(created.statusCode).toBe(201);
    const { id } = created.json().endpoint;
    expect((await support.post(`/api/v1/admin/webhooks/${id}/secret`)).statusCode).toBe(403);
    expect((await support.request('DELETE', `/api/v1/admin/webhooks/${id}`)).statusCode).toBe(403);
  });

  it('shows the secret once, keeps it sealed, and audits every change', async () => {
    const acknowledging = await receiver(answerWith(200));
    const created = await admin.post('/api/v1/admin/webhooks', {
      url: acknowledging.url,
      eventTypes: ['money.deposit'],
    });
    const { endpoint, secret } = created.json();
    expect(created.headers['cache-control']).toBe('no-store');
    const listed = await admin.get('/api/v1/admin/webhooks');
    expect(listed.body).not.toContain(secret);
    const stored = await app.db.query<{ secret_encrypted: string }>(
      'SELECT secret_encrypted FROM webhook_endpoints WHERE id = $1',
      [endpoint.id],
    );
    expect(stored.rows[0]?.secret_encrypted).not.toContain(secret.slice(6));

    const base = `/api/v1/admin/webhooks/${endpoint.id}`;
    expect((await admin.post(`${base}/disable`)).json().status).toBe('disabled');
    expect((await admin.post(`${base}/disable`)).statusCode).toBe(409);
    const customer = await createCustomer(app);
    await fund(customer, 100n);
    // Turned off when the money moved: no delivery was written for it.
    expect(await deliveriesOf(endpoint.id)).toEqual([]);
    expect((await admin.post(`${base}/enable`)).json().status).toBe('enabled');
    await fund(customer, 200n);
    await runDeliveries(app);
    const [delivered] = await deliveriesOf(endpoint.id);
    expect(delivered?.status).toBe('delivered');

    const replayed = await admin.post(`${base}/deliveries/${delivered?.id}/replay`);
    expect(replayed.statusCode).toBe(202);
    await runDeliveries(app);
    expect(acknowledging.received.map((one) => one.headers['webhook-id'])).toEqual([
      delivered?.eventId,
      delivered?.eventId,
    ]);
    expect((await admin.post(`${base}/deliveries/999999/replay`)).statusCode).toBe(404);

    expect((await admin.request('DELETE', base)).statusCode).toBe(204);
    expect((await admin.get(`${base}/deliveries`)).statusCode).toBe(404);
    const audited = await app.db.query<{ action: string }>(
      `SELECT action FROM audit_events WHERE after->>'endpointId' = $1 OR before->>'endpointId' = $1
        ORDER BY created_at, id`,
      [endpoint.id],
    );
    expect(audited.rows.map((row) => row.action).sort()).toEqual(
      [
        'webhook_delivery_replayed',
        'webhook_endpoint_deleted',
        'webhook_endpoint_disabled',
        'webhook_endpoint_enabled',
        'webhook_endpoint_registered',
      ].sort(),
    );
  });

  it('refuses bad input with the fields named, never a 500', async () => {
    for (const body of [
      { url: 'not a url', eventTypes: ['money.deposit'] },
      { url: 'ftp://hooks.example.com/', eventTypes: ['money.deposit'] },
      { url: 'https://user:pass@hooks.example.com/', eventTypes: ['money.deposit'] },
      { url: 'https://hooks.example.com/', eventTypes: [] },
      { url: 'https://hooks.example.com/', eventTypes: ['money.laundering'] },
      { url: `https://hooks.example.com/${'a'.repeat(2_000)}`, eventTypes: ['money.deposit'] },
    ]) {
      const refused = await admin.post('/api/v1/admin/webhooks', body);
      expect(refused.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect((await admin.post('/api/v1/admin/webhooks/not-a-uuid/enable')).statusCode).toBe(400);
    expect(
      (await admin.post('/api/v1/admin/webhooks/00000000-0000-0000-0000-000000000000/enable'))
        .statusCode,
    ).toBe(404);
  });
});
