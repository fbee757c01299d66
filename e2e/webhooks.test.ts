// Webhooks end to end (issue #34 item 1): an admin registers an endpoint on /admin/webhooks,
// sees its secret once, a customer pays, and the delivery shows as delivered; the receiver
// (node:http on 127.0.0.1, allowed by COFFER_WEBHOOKS_ALLOW_PRIVATE) verifies its signature
// with the secret the page showed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { unexpectedProblems } from './support/console.ts';
import { callApi, demo, logIn, pathOf } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 180_000;
const deliveredWithinMs = 60_000;

// The job runner looks for due deliveries every half second instead of every minute.
const suite = useServerAndBrowser({
  env: { COFFER_WEBHOOKS_ALLOW_PRIVATE: '1', COFFER_JOB_TICK_MS: '500' },
});

type Received = { headers: Record<string, string>; body: string };
const received: Received[] = [];
let receiver: http.Server;
let receiverUrl = '';

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('received');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/coffer`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('webhooks', () => {
  it(
    'registers an endpoint, shows its secret once, and delivers a payment to it, signed',
    async () => {
      const { page, problems } = await suite.openPage();
      await logIn(page, demo.admin);
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Webhooks' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      expect(pathOf(page)).toBe('/admin/webhooks');

      await page.getByLabel('Address').fill(receiverUrl);
      await page.getByRole('button', { name: 'Register' }).click();
      const shown = page.getByTestId('webhook-secret');
      await shown.waitFor();
      const secret = (await shown.textContent()) ?? '';
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
      expect(await seriousAxeViolations(page, 'webhooks')).toEqual([]);
      await page.getByRole('button', { name: 'I have copied it' }).click();
      await shown.waitFor({ state: 'detached' });
      const endpoint = page.getByTestId('webhook-endpoint');
      await endpoint.getByText(receiverUrl).waitFor();
      // Shown once: neither the page nor a reload shows it again.
      await page.reload();
      await endpoint.getByText(receiverUrl).waitFor();
      expect(await page.content()).not.toContain(secret);

      // Alice pays a new customer in her currency.
      const { context: payeeContext } = await suite.openPage();
      const payee = await signUpInContext(payeeContext, suite.server.baseUrl, newCustomer());
      const alice = await suite.openPage();
      await logIn(alice.page, demo.alice);
      const paid = await callApi(
        alice.page,
        suite.server.baseUrl,
        'POST',
        '/api/v1/transfers',
        { recipient: payee.email, amount: '1.25' },
        { idempotencyKey: `webhooks-${Date.now()}` },
      );
      expect(paid.status, JSON.stringify(paid.json)).toBe(201);

      await endpoint.getByRole('button', { name: 'Deliveries' }).click();
      // One delivery per wallet the payment moved: Alice's and her payee's.
      const statuses = endpoint.getByTestId('webhook-delivery-status');
      await expect
        .poll(async () => (await statuses.allTextContents()).join(','), {
          timeout: deliveredWithinMs,
          interval: 1_000,
        })
        .toBe('delivered,delivered');

      expect(received).toHaveLength(2);
      const amounts = received.map((one) => {
        const event = new Webhook(secret).verify(one.body, one.headers) as {
          type: string;
          data: { amountMinor: string };
        };
        expect(event.type).toBe('money.transfer');
        return event.data.amountMinor;
      });
      expect(amounts.sort()).toEqual(['-125', '125']);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
