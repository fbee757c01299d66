// The same passkey answer sent many times at once: its challenge is spent by one statement,
// so exactly one sign-in and one payment go through. Needs PostgreSQL's real concurrency.
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { useTestApp } from '../../test/app.ts';
import { createCustomer } from '../../test/customers.ts';
import { newIdempotencyKey, TestClient } from '../../test/http.ts';
import { SoftwareAuthenticator } from '../../test/passkeys.ts';

const publicUrl = 'http://bank.localhost:3000';
const parallelCount = 8;

let app: FastifyInstance;
useTestApp(
  (opened) => {
    ({ app } = opened);
  },
  { env: { COFFER_PUBLIC_URL: publicUrl }, poolSize: 20, checksAfterEach: 'ledger' },
);

it('lets one of many parallel copies of an answer sign in, and one pay', async () => {
  const customer = await createCustomer(app, { balance: '5000.00', level: 2 });
  const recipient = await createCustomer(app);
  const authenticator = new SoftwareAuthenticator(publicUrl);
  const started = await customer.client.post('/api/v1/profile/passkeys/options', {
    currentPassword: customer.body.password,
  });
  const registered = await customer.client.post('/api/v1/profile/passkeys', {
    name: 'Phone',
    response: authenticator.createResponse(started.json().options),
  });
  expect(registered.statusCode, registered.body).toBe(201);

  const browser = new TestClient(app);
  const options = (await browser.post('/api/v1/auth/passkey/options')).json().options;
  const response = authenticator.getResponse(options);
  const signIns = await Promise.all(
    Array.from({ length: parallelCount }, () =>
      new TestClient(app).post('/api/v1/auth/passkey/sign-in', { response }),
    ),
  );
  expect(signIns.map((answer) => answer.statusCode).sort()).toEqual([
    200,
    ...Array(parallelCount - 1).fill(400),
  ]);

  const payment = { recipient: recipient.wallet.number, amount: '1000.00' };
  const stepUp = await customer.client.post('/api/v1/step-up/passkey-options', {
    purpose: 'transfer',
    ...payment,
  });
  const stepUpPasskey = authenticator.getResponse(stepUp.json().options);
  const payments = await Promise.all(
    Array.from({ length: parallelCount }, () =>
      customer.client.post(
        '/api/v1/transfers',
        { ...payment, stepUpPasskey },
        { 'idempotency-key': newIdempotencyKey() },
      ),
    ),
  );
  for (const answer of payments) expect(answer.statusCode, answer.body).toBeLessThan(500);
  expect(payments.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
  expect((await app.ledger.balance(recipient.wallet.id)).balanceMinor).toBe(100_000n);
});
