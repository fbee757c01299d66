// Outside COFFER_WEBHOOKS_ALLOW_PRIVATE, what a webhook may reach: the public internet over
// https only, checked after DNS resolution.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer } from '../../../test/customers.ts';
import { staffClient, type TestClient } from '../../../test/http.ts';
import {
  answerWith,
  type Receiver,
  registerWebhook,
  runDeliveries,
  startReceiver,
} from '../../../test/webhooks.ts';

let app: FastifyInstance;
let admin: TestClient;
let receiver: Receiver;

useTestApp(async (opened) => {
  ({ app } = opened);
  admin = (await staffClient(app, 'admin')).client;
});

beforeAll(async () => {
  receiver = await startReceiver(answerWith(200));
});
afterAll(() => receiver.close());

describe('webhooks to private addresses (COFFER_WEBHOOKS_ALLOW_PRIVATE unset)', () => {
  it('refuses to register a plain-http or private-address endpoint', async () => {
    for (const url of [
      receiver.url,
      'http://hooks.example.com/coffer',
      'https://10.1.2.3/coffer',
      'https://127.0.0.1/coffer',
      'https://[::1]/coffer',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00::1]/coffer',
    ]) {
      const refused = await admin.post('/api/v1/admin/webhooks', {
        url,
        eventTypes: ['money.deposit'],
      });
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json().error.fields.url, url).toBeTruthy();
    }
  });

  it('refuses at sending a name that resolves to a private address, and never connects', async () => {
    // Registered: a name is only known to be private once resolved, at each attempt.
    const endpoint = await registerWebhook(admin, `https://localhost:${receiver.port}/hooks`, [
      'money.deposit',
    ]);
    await createCustomer(app, { balance: '1.00' });
    await runDeliveries(app);
    expect(receiver.received).toEqual([]);
    const [delivery] = (await admin.get(`/api/v1/admin/webhooks/${endpoint.id}/deliveries`)).json()
      .items;
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0].statusCode).toBeNull();
    expect(delivery.attempts[0].error).toMatch(/^refused: localhost resolves to .* \(loopback\)$/);
  });
});
