// The chaos checker must fail a run that loses an acknowledged payment (issue #29). This is
// what asynchronous replication does when the primary dies: the standby that takes over
// has not yet replayed the last commits the clients were told about. Here that standby is
// a copy of the database taken just before a Quick Pay the app then acknowledged; the
// checker reads it as `npm run chaos` reads the new primary (facts.ts, verdict.ts).
import type { FastifyInstance } from 'fastify';
import { afterEach, expect, inject, it } from 'vitest';
import { type Database, openPostgres } from '../../apps/api/src/db/client.ts';
import { buildTestApp } from '../../apps/api/test/app.ts';
import { createCustomer } from '../../apps/api/test/customers.ts';
import { createServerDatabase } from '../../apps/api/test/database.ts';
import { newIdempotencyKey, TestClient } from '../../apps/api/test/http.ts';
import { quickPay } from '../../apps/api/test/transfers.ts';
import { readFacts } from './facts.ts';
import { judge, type RequestRecord } from './verdict.ts';

const cleanUps: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

async function openApp(url: string): Promise<{ app: FastifyInstance; db: Database }> {
  const db = openPostgres(url, 4);
  const app = await buildTestApp(db);
  return { app, db };
}

/** A Quick Pay whose note carries its key, as the chaos load sends it; acknowledged. */
async function paidQuickPay(client: TestClient, recipient: string): Promise<RequestRecord> {
  const key = newIdempotencyKey();
  const answer = await quickPay(client, { recipient, amount: '1.00', note: key }, key);
  expect(answer.statusCode, answer.body).toBe(201);
  return { kind: 'quick-pay', key, attempts: ['acked'] };
}

it('fails a run whose acknowledged Quick Pay is missing from the database that took over', async () => {
  const primary = await createServerDatabase(inject('postgresTemplateName'));
  cleanUps.push(primary.drop);
  const before = await openApp(primary.url);
  const sender = await createCustomer(before.app, { balance: '100.00', level: 3 });
  const recipient = await createCustomer(before.app);
  const heldByBoth = await paidQuickPay(sender.client, recipient.wallet.number);
  // CREATE DATABASE … TEMPLATE copies a database nobody is connected to.
  await before.app.close();
  await before.db.close();
  const laggingStandby = await createServerDatabase(primary.name);
  cleanUps.push(laggingStandby.drop);

  const after = await openApp(primary.url);
  cleanUps.push(async () => {
    await after.app.close();
    await after.db.close();
  });
  const senderAgain = new TestClient(after.app);
  senderAgain.cookie = sender.client.cookie;
  const lost = await paidQuickPay(senderAgain, recipient.wallet.number);

  const records = [heldByBoth, lost];
  const wallets = { walletIds: [sender.wallet.id, recipient.wallet.id], startTotalMinor: 10_000n };
  const judgeOn = async (url: string) => {
    const db = openPostgres(url, 2);
    try {
      return judge(records, await readFacts(db, records, wallets));
    } finally {
      await db.close();
    }
  };
  // The primary holds both payments: nothing to report.
  expect((await judgeOn(primary.url)).violations).toEqual([]);
  // The standby is a consistent bank a moment earlier (money conserved, books balanced):
  // only the acknowledged payment's absence gives the loss away, and the verdict names it.
  expect((await judgeOn(laggingStandby.url)).violations).toEqual([
    `quick-pay ${lost.key}: acknowledged but its effect is missing`,
  ]);
});
