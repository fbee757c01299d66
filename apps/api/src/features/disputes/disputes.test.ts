import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app.ts';
import { authorizeOnCard, issuedCard, settle } from '../../../test/cards.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { openTestDatabase } from '../../../test/database.ts';
import { newIdempotencyKey, staffClient } from '../../../test/http.ts';
import { quickPay } from '../../../test/transfers.ts';
import type { Database } from '../../db/client.ts';
import { checkInvariants } from '../../ledger/invariants.ts';
import { translateText } from '../../platform/i18n.ts';
import { newId } from '../../platform/ids.ts';

let db: Database;
let app: FastifyInstance;

beforeAll(async () => {
  db = await openTestDatabase();
  app = await buildTestApp(db);
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.close();
});

const validDispute = {
  kind: 'general',
  amount: '25.00',
  recipientAccountNumber: '1234567890',
  problemType: 'other',
  description: 'The payment never arrived.',
};

function fileDispute(customer: TestCustomer, body: object) {
  return customer.client.post('/api/v1/disputes', body);
}

const key = () => ({ 'idempotency-key': newIdempotencyKey() });

describe('disputes', () => {
  it('files a dispute with a fresh REF- reference and lists it as pending', async () => {
    const customer = await createCustomer(app);
    const filed = await fileDispute(customer, validDispute);
    expect(filed.statusCode).toBe(201);
    const dispute = filed.json();
    expect(dispute).toMatchObject({
      reference: expect.stringMatching(/^REF-[A-Z0-9]{9}$/),
      amountMinor: '2500',
      currency: 'USD',
      status: 'pending',
      resolutionNote: null,
      refund: null,
    });
    const second = (await fileDispute(customer, validDispute)).json();
    expect(second.reference).not.toBe(dispute.reference);
    const list = (await customer.client.get('/api/v1/disputes')).json();
    expect(list.items.map((item: { id: string }) => item.id)).toEqual([second.id, dispute.id]);
  });

  it('says which fields are missing, and refuses a non-numeric amount', async () => {
    const customer = await createCustomer(app);
    const empty = await fileDispute(customer, { kind: 'general' });
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json().error.fields).sort()).toEqual([
      'amount',
      'description',
      'problemType',
      'recipientAccountNumber',
    ]);
    const wrongAmount = await fileDispute(customer, { ...validDispute, amount: 'ten' });
    expect(wrongAmount.json().error.fields.amount).toBe('Invalid amount');
    const tooPrecise = await fileDispute(customer, { ...validDispute, amount: '1.005' });
    expect(tooPrecise.statusCode).toBe(400);
    const tooLong = await fileDispute(customer, {
      ...validDispute,
      description: 'x'.repeat(2_001),
    });
    expect(tooLong.statusCode).toBe(400);
  });

  it('keeps HTML in a description as the text typed', async () => {
    const customer = await createCustomer(app);
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const filed = (await fileDispute(customer, { ...validDispute, description: hostile })).json();
    expect(filed.description).toBe(hostile);
  });

  it('starts from the customer’s own transaction only, of the kind chosen: another’s answers 404', async () => {
    const sender = await createCustomer(app, { balance: '50.00' });
    const recipient = await createCustomer(app);
    const stranger = await createCustomer(app);
    const paid = (
      await quickPay(sender.client, { recipient: recipient.wallet.number, amount: '5.00' })
    ).json();
    const picker = (await recipient.client.get('/api/v1/disputes/transactions')).json();
    expect(picker.items[0]).toEqual(
      expect.objectContaining({
        id: paid.entryId,
        kind: 'transfer',
        amountMinor: '500',
        disputeReference: null,
      }),
    );
    expect(picker.items[0]).not.toHaveProperty('memo');
    // Filed as a card purchase, it is refused in one whole message, in the request's language.
    const asCard = {
      kind: 'card',
      entryId: paid.entryId,
      amount: '5.00',
      problemType: 'charged_twice',
      description: 'Twice.',
    };
    const refused = await recipient.client.post('/api/v1/disputes', asCard, {
      'accept-language': 'de',
    });
    expect(refused.statusCode).toBe(400);
    const english = 'That transaction is not of the kind you chose: choose it again.';
    expect(refused.json().error.message).toBe(translateText('de', english));
    expect(refused.json().error.message).not.toBe(english);
    const fromTransfer = {
      kind: 'transfer',
      entryId: paid.entryId,
      amount: '5.00',
      problemType: 'wrong_amount',
      description: 'I expected 50.00.',
    };
    const linked = await fileDispute(recipient, fromTransfer);
    expect(linked.statusCode).toBe(201);
    // The recipient is not asked, and the sender's number is not the recipient's to see.
    expect(linked.json()).toMatchObject({ entryId: paid.entryId, recipientAccountNumber: null });
    const notTheirs = await fileDispute(stranger, fromTransfer);
    expect(notTheirs.statusCode).toBe(404);
    const lookedUp = await stranger.client.get(`/api/v1/disputes/transactions/${paid.entryId}`);
    expect(lookedUp.statusCode).toBe(404);
    // The sender's own dispute about it takes the recipient's number from the ledger.
    const sent = await fileDispute(sender, { ...fromTransfer, problemType: 'other' });
    expect(sent.json().recipientAccountNumber).toBe(recipient.wallet.number);
  });

  it('refuses a second dispute about a transaction with the first one’s reference, and lists it', async () => {
    const customer = await createCustomer(app, { balance: '30.00' });
    const [line] = (await customer.client.get('/api/v1/disputes/transactions')).json().items;
    const body = {
      kind: 'deposit',
      entryId: line.id,
      amount: '30.00',
      problemType: 'wrong_amount',
      description: 'I sent 300.00.',
    };
    const first = (await fileDispute(customer, body)).json();
    const second = await fileDispute(customer, { ...body, problemType: 'other' });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.message).toContain(first.reference);
    const one = (await customer.client.get(`/api/v1/disputes/transactions/${line.id}`)).json();
    expect(one).toMatchObject({ id: line.id, kind: 'deposit', disputeReference: first.reference });
    const page = (await customer.client.get('/api/v1/wallet/transactions')).json();
    expect(page.items[0]).toMatchObject({ entryId: line.id, disputeReference: first.reference });
    const disputes = (await customer.client.get('/api/v1/disputes')).json().items;
    expect(disputes).toHaveLength(1);
  });

  it('asks only what fits the kind: no recipient on a deposit, card types only on a card, the kind checked against the line', async () => {
    const customer = await createCustomer(app, { balance: '30.00' });
    const [line] = (await customer.client.get('/api/v1/disputes/transactions')).json().items;
    const deposit = { kind: 'deposit', entryId: line.id, amount: '30.00', description: 'Short' };
    const withCardType = await fileDispute(customer, { ...deposit, problemType: 'charged_twice' });
    expect(withCardType.statusCode).toBe(400);
    expect(withCardType.json().error.fields).toHaveProperty('problemType');
    const asCard = await fileDispute(customer, {
      ...deposit,
      kind: 'card',
      problemType: 'charged_twice',
    });
    expect(asCard.statusCode).toBe(400);
    expect(asCard.json().error.fields).toHaveProperty('kind');
    const aboveTheLine = await fileDispute(customer, {
      ...deposit,
      amount: '30.01',
      problemType: 'wrong_amount',
    });
    expect(aboveTheLine.json().error.fields.amount).toBe("At most the transaction's $30.00");
    const noEntry = await fileDispute(customer, {
      kind: 'deposit',
      amount: '1.00',
      problemType: 'other',
      description: 'x',
    });
    expect(Object.keys(noEntry.json().error.fields)).toEqual(['entryId']);
  });

  it('disputes a card purchase without a recipient, freezes just that card, and shows staff the purchase', async () => {
    const admin = await staffClient(app, 'admin');
    const customer = await createCustomer(app, { level: 2, balance: '500.00' });
    const { cardId, token } = await issuedCard(app, customer, admin.client);
    const authorizationId = `auth_${newId()}`;
    await authorizeOnCard(app, token, 4_200n, { id: authorizationId, merchant: 'Night Market' });
    expect((await settle(app, authorizationId)).statusCode).toBe(200);
    const [purchase] = (await customer.client.get('/api/v1/wallet/transactions')).json().items;
    expect(purchase).toMatchObject({ kind: 'card_purchase', disputeReference: null });
    const card = {
      kind: 'card',
      entryId: purchase.entryId,
      amount: '42.00',
      problemType: 'unauthorized_transaction',
      description: 'I was asleep at the time.',
      freezeCard: true,
    };
    // A card purchase has no account freeze on offer: it freezes the card instead.
    const withAccountFreeze = await fileDispute(customer, { ...card, freezeAccount: true });
    expect(withAccountFreeze.statusCode).toBe(400);
    const filed = await fileDispute(customer, card);
    expect(filed.statusCode).toBe(201);
    expect(filed.json()).toMatchObject({
      recipientAccountNumber: null,
      problemType: 'unauthorized_transaction',
      amountMinor: '4200',
    });
    const cards = (await customer.client.get('/api/v1/cards')).json();
    expect(cards.card).toMatchObject({ id: cardId, status: 'frozen' });
    const declined = await authorizeOnCard(app, token, 100n);
    expect(declined.json()).toMatchObject({ approved: false });
    // A freeze the customer asked for is theirs: they may lift it, and the account moves money.
    const me = (await customer.client.get('/api/v1/auth/me')).json();
    expect(me.frozenReason).toBeNull();
    expect((await customer.client.post(`/api/v1/cards/${cardId}/unfreeze`, {})).statusCode).toBe(
      200,
    );
    const seen = (
      await admin.client.get(`/api/v1/admin/disputes/${filed.json().reference}`)
    ).json();
    expect(seen.linkedTransaction).toMatchObject({
      id: purchase.entryId,
      kind: 'card_purchase',
      memo: expect.stringContaining('Night Market'),
      amountMinor: '-4200',
    });
  });

  it('offers card problem types on a card purchase only, and a card freeze without a frozen account', async () => {
    const admin = await staffClient(app, 'admin');
    const customer = await createCustomer(app, { level: 2, balance: '500.00' });
    const { token } = await issuedCard(app, customer, admin.client);
    const authorizationId = `auth_${newId()}`;
    await authorizeOnCard(app, token, 1_000n, { id: authorizationId });
    await settle(app, authorizationId);
    const [purchase] = (await customer.client.get('/api/v1/wallet/transactions')).json().items;
    const twice = await fileDispute(customer, {
      kind: 'card',
      entryId: purchase.entryId,
      amount: '10.00',
      problemType: 'charged_twice',
      description: 'Twice for one coffee.',
    });
    expect(twice.statusCode).toBe(201);
    const cards = (await customer.client.get('/api/v1/cards')).json();
    expect(cards.card.status).toBe('issued');
    const fee = (await customer.client.get('/api/v1/disputes/transactions'))
      .json()
      .items.find((item: { kind: string }) => item.kind === 'fee');
    const feeAsCard = await fileDispute(customer, {
      kind: 'card',
      entryId: fee.id,
      amount: '1.00',
      problemType: 'goods_not_received',
      description: 'x',
    });
    expect(feeAsCard.json().error.fields).toHaveProperty('kind');
  });

  it('shows a dispute to its owner only', async () => {
    const owner = await createCustomer(app);
    const other = await createCustomer(app);
    const dispute = (await fileDispute(owner, validDispute)).json();
    expect((await owner.client.get(`/api/v1/disputes/${dispute.id}`)).statusCode).toBe(200);
    expect((await other.client.get(`/api/v1/disputes/${dispute.id}`)).statusCode).toBe(404);
  });

  it('freezes the account at once when the customer reports an unauthorized transaction and asks', async () => {
    const customer = await createCustomer(app, { balance: '20.00', level: 2 });
    const other = await createCustomer(app);
    const filed = await fileDispute(customer, {
      ...validDispute,
      problemType: 'unauthorized_transaction',
      freezeAccount: true,
    });
    expect(filed.statusCode).toBe(201);
    const me = (await customer.client.get('/api/v1/auth/me')).json();
    expect(me.frozenReason).toContain(filed.json().reference);
    const payment = await quickPay(customer.client, {
      recipient: other.wallet.number,
      amount: '1.00',
    });
    expect(payment.json().error.code).toBe('account_frozen');
    const audit = await db.query<{ action: string; actor_user_id: string }>(
      "SELECT action, actor_user_id FROM audit_events WHERE subject_user_id = $1 AND action = 'account_frozen_by_customer'",
      [customer.user.id],
    );
    expect(audit.rows).toEqual([
      { action: 'account_frozen_by_customer', actor_user_id: customer.user.id },
    ]);
    const wrongType = await fileDispute(other, { ...validDispute, freezeAccount: true });
    expect(wrongType.statusCode).toBe(400);
  });

  it('tells a German customer of each step in German, whole, with staff’s note as written', async () => {
    const customer = await createCustomer(app);
    const chosen = await customer.client.request('PUT', '/api/v1/profile/language', {
      language: 'de',
    });
    expect(chosen.statusCode).toBe(200);
    const support = await staffClient(app, 'support');
    const dispute = (await fileDispute(customer, validDispute)).json();
    const newestText = async () =>
      (await customer.client.get('/api/v1/notifications')).json().items[0].text as string;
    await support.client.post(`/api/v1/admin/disputes/${dispute.id}/investigate`, {});
    const investigated = await newestText();
    expect(investigated).toBe(
      translateText('de', `Your dispute ${dispute.reference} is being investigated.`),
    );
    expect(investigated).not.toMatch(/investigated/);
    const resolved = await support.client.post(
      `/api/v1/admin/disputes/${dispute.id}/resolve`,
      { note: 'Refunded in full.', refundAmount: '25.00' },
      key(),
    );
    expect(resolved.statusCode).toBe(200);
    const waiting = await newestText();
    // The amount as German writes it, in a German sentence.
    expect(waiting).toContain('25,00');
    expect(waiting).toContain(dispute.reference);
    expect(waiting).not.toMatch(/waits/);
  });

  it('keeps a dispute being investigated while support’s refund waits for an admin, and resolves it once approved', async () => {
    const customer = await createCustomer(app);
    const support = await staffClient(app, 'support');
    const admin = await staffClient(app, 'admin');
    const dispute = (await fileDispute(customer, validDispute)).json();
    const queue = (await support.client.get('/api/v1/admin/queues/disputes')).json();
    expect(queue.items.map((item: { id: string }) => item.id)).toContain(dispute.id);
    const investigating = await support.client.post(
      `/api/v1/admin/disputes/${dispute.id}/investigate`,
      {},
    );
    expect(investigating.json().status).toBe('investigating');
    const noNote = await support.client.post(
      `/api/v1/admin/disputes/${dispute.id}/resolve`,
      { refundAmount: '25.00' },
      key(),
    );
    expect(noNote.statusCode).toBe(400);
    const resolved = await support.client.post(
      `/api/v1/admin/disputes/${dispute.id}/resolve`,
      { note: 'Refunded in full.', refundAmount: '25.00' },
      key(),
    );
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json()).toMatchObject({
      status: 'investigating',
      resolutionNote: 'Refunded in full.',
      refund: { amountMinor: '2500', status: 'pending_approval' },
    });
    const seen = (await customer.client.get(`/api/v1/disputes/${dispute.id}`)).json();
    expect(seen).toMatchObject({ status: 'investigating', resolutionNote: 'Refunded in full.' });
    const told = (await customer.client.get('/api/v1/notifications')).json().items[0];
    expect(told.text).toBe(
      `Your dispute ${dispute.reference} is being investigated. A refund of $25.00 waits for approval.`,
    );
    // Nothing moves the dispute while its refund waits: no second refund, no rejection.
    for (const [path, body] of [
      ['reject', { note: 'no' }],
      ['resolve', { note: 'Again.', refundAmount: '25.00' }],
    ] as const) {
      const again = await support.client.post(
        `/api/v1/admin/disputes/${dispute.id}/${path}`,
        body,
        key(),
      );
      expect(again.statusCode, path).toBe(409);
    }
    // Support cannot approve it; a second admin can.
    const pending = (await admin.client.get('/api/v1/admin/queues/deposits')).json();
    const refund = pending.items.find(
      (item: { externalReference: string | null }) => item.externalReference === dispute.reference,
    );
    expect(refund).toBeDefined();
    expect(
      (await support.client.post(`/api/v1/admin/money-requests/${refund.id}/approve`, {}))
        .statusCode,
    ).toBe(403);
    const approved = await admin.client.post(
      `/api/v1/admin/money-requests/${refund.id}/approve`,
      {},
    );
    expect(approved.json().status).toBe('posted');
    const wallet = (await customer.client.get('/api/v1/wallet')).json();
    expect(wallet.availableMinor).toBe('2500');
    const settled = (await customer.client.get(`/api/v1/disputes/${dispute.id}`)).json();
    expect(settled).toMatchObject({ status: 'resolved', refund: { status: 'posted' } });
    const paid = (await customer.client.get('/api/v1/notifications')).json().items;
    expect(paid.map((item: { text: string }) => item.text)).toContain(
      `Your dispute ${dispute.reference} is resolved: the refund is in your account. Refunded in full.`,
    );
    // The statement line says what the money is.
    const lines = (await customer.client.get('/api/v1/wallet/deposits')).json().items;
    expect(lines.map((line: { description: string }) => line.description)).toEqual([
      `Refund (${dispute.reference})`,
    ]);
    const bell = (await customer.client.get('/api/v1/notifications')).json();
    expect(bell.items.map((item: { kind: string }) => item.kind)).toEqual(
      expect.arrayContaining(['dispute_updated', 'deposit_posted']),
    );
    expect(await checkInvariants(db)).toEqual([]);
  });

  describe('a refund above what was disputed', () => {
    function resolve(staff: { client: TestCustomer['client'] }, disputeId: string, amount: string) {
      return staff.client.post(
        `/api/v1/admin/disputes/${disputeId}/resolve`,
        { note: 'Refunded.', refundAmount: amount },
        key(),
      );
    }

    async function refundRequestOf(reference: string) {
      const found = await db.query<{ status: string; reason: string; amount_minor: bigint }>(
        'SELECT status, reason, amount_minor FROM money_requests WHERE external_reference = $1',
        [reference],
      );
      return found.rows[0];
    }

    it('posts a refund up to the disputed amount at once, and makes one a minor unit above it wait for a second admin', async () => {
      const customer = await createCustomer(app);
      const admin = await staffClient(app, 'admin');
      const secondAdmin = await staffClient(app, 'admin');
      const oneDollar = { ...validDispute, amount: '1.00' };
      const equal = (await fileDispute(customer, oneDollar)).json();
      const paid = await resolve(admin, equal.id, '1.00');
      expect(paid.json().refund).toMatchObject({ amountMinor: '100', status: 'posted' });
      const above = (await fileDispute(customer, oneDollar)).json();
      const waiting = await resolve(admin, above.id, '1.01');
      expect(waiting.statusCode).toBe(200);
      expect(waiting.json()).toMatchObject({
        status: 'investigating',
        refund: { amountMinor: '101', status: 'pending_approval' },
      });
      expect(await refundRequestOf(above.reference)).toMatchObject({
        status: 'pending_approval',
        reason: `Refund for dispute ${above.reference}: refund above the disputed amount ($1.00)`,
      });
      // Far below the approval threshold, from an admin: still not posted by her alone.
      const huge = (await fileDispute(customer, oneDollar)).json();
      expect((await resolve(admin, huge.id, '9999.00')).json().refund.status).toBe(
        'pending_approval',
      );
      expect((await customer.client.get('/api/v1/wallet')).json().availableMinor).toBe('100');
      const request = (await admin.client.get('/api/v1/admin/queues/deposits'))
        .json()
        .items.find(
          (item: { externalReference: string | null }) =>
            item.externalReference === above.reference,
        );
      expect(request.reason).toContain('refund above the disputed amount');
      const own = await admin.client.post(`/api/v1/admin/money-requests/${request.id}/approve`, {});
      expect(own.statusCode).toBe(403);
      const approved = await secondAdmin.client.post(
        `/api/v1/admin/money-requests/${request.id}/approve`,
        {},
      );
      expect(approved.json().status).toBe('posted');
      expect((await customer.client.get('/api/v1/wallet')).json().availableMinor).toBe('201');
      expect(await checkInvariants(db)).toEqual([]);
    });

    it('shows a refund its maker cancelled as no refund, the dispute still being investigated', async () => {
      const customer = await createCustomer(app);
      const support = await staffClient(app, 'support');
      const dispute = (await fileDispute(customer, validDispute)).json();
      expect((await resolve(support, dispute.id, '25.01')).statusCode).toBe(200);
      const found = await db.query<{ id: string }>(
        'SELECT id FROM money_requests WHERE external_reference = $1',
        [dispute.reference],
      );
      const cancelled = await support.client.post(
        `/api/v1/admin/money-requests/${found.rows[0]?.id}/cancel`,
        {},
      );
      expect(cancelled.json().status).toBe('cancelled');
      const seen = await customer.client.get(`/api/v1/disputes/${dispute.id}`);
      expect(seen.statusCode).toBe(200);
      expect(seen.json()).toMatchObject({ status: 'investigating', refund: null });
      const staffSeen = await support.client.get(`/api/v1/admin/disputes/${dispute.reference}`);
      expect(staffSeen.json()).toMatchObject({ status: 'investigating', refund: null });
      const told = (await customer.client.get('/api/v1/notifications')).json().items[0];
      expect(told.text).toBe(
        `Your dispute ${dispute.reference} is still being investigated: the refund was not approved.`,
      );
      // Staff decide again, without a refund this time.
      const resolved = await support.client.post(
        `/api/v1/admin/disputes/${dispute.id}/resolve`,
        { note: 'The merchant refunded you directly.' },
        key(),
      );
      expect(resolved.json()).toMatchObject({ status: 'resolved', refund: null });
    });

    it('bounds the refund by the disputed part of a linked transaction', async () => {
      const sender = await createCustomer(app, { balance: '50.00' });
      const recipient = await createCustomer(app);
      const admin = await staffClient(app, 'admin');
      const linkedDispute = async () => {
        const paid = (
          await quickPay(sender.client, { recipient: recipient.wallet.number, amount: '5.00' })
        ).json();
        const body = {
          kind: 'transfer',
          entryId: paid.entryId,
          amount: '3.00',
          problemType: 'wrong_amount',
          description: 'I meant to send 2.00.',
        };
        return (await fileDispute(sender, body)).json();
      };
      const within = await linkedDispute();
      expect((await resolve(admin, within.id, '3.00')).json().refund.status).toBe('posted');
      const above = await linkedDispute();
      expect((await resolve(admin, above.id, '3.01')).json().refund.status).toBe(
        'pending_approval',
      );
      expect((await refundRequestOf(above.reference))?.reason).toBe(
        `Refund for dispute ${above.reference}: refund above the disputed amount ($3.00)`,
      );
      expect(await checkInvariants(db)).toEqual([]);
    });

    it('compares in the wallet’s currency: yen have no minor digits', async () => {
      const customer = await createCustomer(app, { country: 'JP' });
      const admin = await staffClient(app, 'admin');
      const disputed = { ...validDispute, amount: '1000' };
      const equal = (await fileDispute(customer, disputed)).json();
      expect(equal).toMatchObject({ amountMinor: '1000', currency: 'JPY' });
      expect((await resolve(admin, equal.id, '1000')).json().refund).toMatchObject({
        amountMinor: '1000',
        status: 'posted',
      });
      const above = (await fileDispute(customer, disputed)).json();
      expect((await resolve(admin, above.id, '1001')).json().refund).toMatchObject({
        amountMinor: '1001',
        status: 'pending_approval',
      });
      expect((await refundRequestOf(above.reference))?.reason).toContain('(¥1,000)');
      const tooPrecise = (await fileDispute(customer, disputed)).json();
      expect((await resolve(admin, tooPrecise.id, '1000.5')).statusCode).toBe(400);
      expect(await checkInvariants(db)).toEqual([]);
    });
  });

  it('finds a dispute by its reference for staff, and hides staff routes from customers', async () => {
    const customer = await createCustomer(app);
    const support = await staffClient(app, 'support');
    const dispute = (await fileDispute(customer, validDispute)).json();
    const found = await support.client.get(`/api/v1/admin/disputes/${dispute.reference}`);
    expect(found.json()).toMatchObject({ id: dispute.id, userId: customer.user.id });
    expect(
      (await customer.client.get(`/api/v1/admin/disputes/${dispute.reference}`)).statusCode,
    ).toBe(404);
  });
});
