// Quick Pay out of a wallet the customer chooses (issue #33): any of their own wallets,
// in its currency, under that currency's daily limits; nobody else's.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { addWallet, createCustomer } from '../../../test/customers.ts';
import type { TestClient } from '../../../test/http.ts';
import { newIdempotencyKey } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';

let db: Database;
let app: FastifyInstance;

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { checksAfterEach: 'money-out' },
);

async function balanceMinor(walletId: AccountId): Promise<bigint> {
  return (await app.ledger.balance(walletId)).balanceMinor;
}

function send(
  client: TestClient,
  body: { recipient: string; amount: string; walletId?: string; note?: string },
) {
  return client.post('/api/v1/transfers', body, { 'idempotency-key': newIdempotencyKey() });
}

async function transferCount(senderUserId: string): Promise<number> {
  const found = await db.query<{ count: string }>(
    'SELECT count(*)::text AS count FROM transfers WHERE sender_user_id = $1',
    [senderUserId],
  );
  return Number(found.rows[0]?.count);
}

/** A German customer (EUR main wallet) who also holds JPY, and a Japanese customer. */
async function euroAndYenSender(options: { level?: number; yen?: string } = {}) {
  const sender = await createCustomer(app, {
    country: 'DE',
    balance: '100.00',
    level: options.level ?? 3,
  });
  const yen = await addWallet(app, sender, 'JPY', options.yen ?? '10000');
  const recipient = await createCustomer(app, { country: 'JP' });
  return { sender, yen, recipient };
}

describe('Quick Pay from a chosen wallet', () => {
  it('sends from the chosen wallet in its currency and leaves the main wallet alone', async () => {
    const { sender, yen, recipient } = await euroAndYenSender();
    const sent = await send(sender.client, {
      recipient: recipient.wallet.number,
      amount: '1500',
      walletId: yen.id,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ amountMinor: '1500', currency: 'JPY' });
    expect(await balanceMinor(yen.id)).toBe(8500n);
    expect(await balanceMinor(sender.wallet.id)).toBe(10_000n);
    expect(await balanceMinor(recipient.wallet.id)).toBe(1500n);
  });

  it('reads the amount in the chosen currency: yen have no decimals', async () => {
    const { sender, yen, recipient } = await euroAndYenSender();
    const sent = await send(sender.client, {
      recipient: recipient.wallet.number,
      amount: '15.50',
      walletId: yen.id,
    });
    expect(sent.statusCode, sent.body).toBe(400);
    expect(await balanceMinor(yen.id)).toBe(10_000n);
  });

  it('pays the main wallet as before when no wallet is chosen', async () => {
    const { sender, recipient } = await euroAndYenSender();
    const euroRecipient = await createCustomer(app, { country: 'FR' });
    const sent = await send(sender.client, {
      recipient: euroRecipient.wallet.number,
      amount: '2.50',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ amountMinor: '250', currency: 'EUR' });
    // Without a choice the money is euros, and a yen wallet is in another currency.
    const refused = await send(sender.client, { recipient: recipient.wallet.number, amount: '1' });
    expect(refused.json().error.code).toBe('recipient_refused');
  });

  it("answers 404 for another customer's wallet or an unknown id, and moves nothing", async () => {
    const { sender, recipient } = await euroAndYenSender();
    const other = await createCustomer(app, { country: 'DE', balance: '50.00', level: 3 });
    const othersYen = await addWallet(app, other, 'JPY', '5000');
    for (const walletId of [
      othersYen.id,
      other.wallet.id,
      '0190a5a0-0000-7000-8000-000000000000',
    ]) {
      const sent = await send(sender.client, {
        recipient: recipient.wallet.number,
        amount: '100',
        walletId,
      });
      expect(sent.statusCode, walletId).toBe(404);
      expect(sent.json().error.code).toBe('not_found');
    }
    expect(await balanceMinor(othersYen.id)).toBe(5000n);
    expect(await balanceMinor(other.wallet.id)).toBe(5000n);
    expect(await transferCount(sender.user.id)).toBe(0);
    expect(await transferCount(other.user.id)).toBe(0);
  });

  it('refuses a recipient without a wallet in the chosen currency, as any refused recipient', async () => {
    const { sender, yen } = await euroAndYenSender();
    const american = await createCustomer(app);
    const sent = await send(sender.client, {
      recipient: american.body.email,
      amount: '100',
      walletId: yen.id,
    });
    expect(sent.statusCode).toBe(404);
    expect(sent.json().error.code).toBe('recipient_refused');
    expect(await balanceMinor(yen.id)).toBe(10_000n);
  });

  it("pays the recipient's wallet in the chosen currency when their number is typed", async () => {
    const { sender, yen } = await euroAndYenSender();
    const american = await createCustomer(app);
    const americansYen = await addWallet(app, american, 'JPY');
    const sent = await send(sender.client, {
      recipient: americansYen.number,
      amount: '700',
      walletId: yen.id,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(await balanceMinor(americansYen.id)).toBe(700n);
    expect(await balanceMinor(american.wallet.id)).toBe(0n);
  });

  it('refuses more than the chosen wallet holds, whatever the main wallet holds', async () => {
    const { sender, yen, recipient } = await euroAndYenSender({ yen: '500' });
    const sent = await send(sender.client, {
      recipient: recipient.wallet.number,
      amount: '501',
      walletId: yen.id,
    });
    expect(sent.json().error.code).toBe('insufficient_funds');
    expect(await balanceMinor(yen.id)).toBe(500n);
  });

  it('refuses a frozen customer from any of their wallets', async () => {
    const { sender, yen, recipient } = await euroAndYenSender();
    await db.query("UPDATE users SET frozen_at = now(), frozen_reason = 'Checks' WHERE id = $1", [
      sender.user.id,
    ]);
    const sent = await send(sender.client, {
      recipient: recipient.wallet.number,
      amount: '100',
      walletId: yen.id,
    });
    expect(sent.json().error.code).toBe('account_frozen');
    expect(await balanceMinor(yen.id)).toBe(10_000n);
  });

  it("counts each currency's daily limit on its own", async () => {
    // Level 1: 500.00 EUR and 75,000 JPY a day.
    const { sender, yen, recipient } = await euroAndYenSender({ level: 1, yen: '100000' });
    await addWallet(app, recipient, 'EUR');
    const euroRecipient = await createCustomer(app, { country: 'FR' });
    const yenSent = await send(sender.client, {
      recipient: recipient.wallet.number,
      amount: '70000',
      walletId: yen.id,
    });
    expect(yenSent.statusCode, yenSent.body).toBe(201);
    const euroSent = await send(sender.client, {
      recipient: euroRecipient.wallet.number,
      amount: '90.00',
    });
    expect(euroSent.statusCode, euroSent.body).toBe(201);
    const over = await send(sender.client, {
      recipient: recipient.wallet.number,
      amount: '5001',
      walletId: yen.id,
    });
    expect(over.json().error).toMatchObject({ code: 'daily_limit_exceeded' });
    expect(over.json().error.message).toContain('5,000');

    const yenAllowances = await sender.client.get(`/api/v1/wallet/allowances?walletId=${yen.id}`);
    expect(yenAllowances.json()).toMatchObject({ currency: 'JPY' });
    expect(
      yenAllowances.json().items.find((item: { kind: string }) => item.kind === 'transfer'),
    ).toMatchObject({ spentTodayMinor: '70000', remainingMinor: '5000' });
    const mainAllowances = await sender.client.get('/api/v1/wallet/allowances');
    expect(
      mainAllowances.json().items.find((item: { kind: string }) => item.kind === 'transfer'),
    ).toMatchObject({ spentTodayMinor: '9000', remainingMinor: '41000' });
  });

  it('previews and challenges a payment from the chosen wallet in its currency', async () => {
    const { sender, yen, recipient } = await euroAndYenSender({ yen: '0' });
    const preview = await sender.client.post('/api/v1/transfers/recipient-preview', {
      recipient: recipient.wallet.number,
      walletId: yen.id,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ currency: 'JPY' });
    // The step-up challenge checks the chosen wallet: empty, though the main one is not.
    const challenged = await sender.client.post('/api/v1/step-up/challenges', {
      purpose: 'transfer',
      recipient: recipient.wallet.number,
      amount: '200000',
      walletId: yen.id,
    });
    expect(challenged.json().error?.code).toBe('insufficient_funds');
  });

  it("refuses to show another customer's allowances", async () => {
    const { sender } = await euroAndYenSender();
    const other = await createCustomer(app, { country: 'DE', level: 3 });
    const othersYen = await addWallet(app, other, 'JPY');
    const answer = await sender.client.get(`/api/v1/wallet/allowances?walletId=${othersYen.id}`);
    expect(answer.statusCode).toBe(404);
  });
});
