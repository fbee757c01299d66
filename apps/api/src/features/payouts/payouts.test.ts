import { toCurrencyCode } from '@coffer/contracts/currencies';
import type { LiveEvent } from '@coffer/contracts/events';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import {
  lastEmailTo,
  newIdempotencyKey,
  signedUpClient,
  staffClient,
  stepUpTraces as traces,
} from '../../../test/http.ts';
import {
  bankDestination,
  emailedStepUpCode,
  lastStepUpCode,
  payoutChallenge,
  requestPayout,
} from '../../../test/payouts.ts';
import { ConfigError, loadConfig } from '../../config.ts';

let app: FastifyInstance;
let admin: Awaited<ReturnType<typeof staffClient>>;
let support: Awaited<ReturnType<typeof staffClient>>;

// Euro payouts cost 1.50 in this app; dollar payouts use the default, no fee.
const feeSchedule = '{"EUR":"1.50"}';

useTestApp(
  async (opened) => {
    ({ app } = opened);
    admin = await staffClient(app, 'admin');
    support = await staffClient(app, 'support');
  },
  { env: { COFFER_PAYOUT_FEES: feeSchedule }, checksAfterEach: 'money-out' },
);

const levelTooLowMessage =
  'Your account level is too low for this transaction. Please upgrade to level 2.';
const wrongCodeMessage = 'Wrong verification code. Please try again.';

async function wallet(customer: TestCustomer) {
  const { balanceMinor, heldMinor, availableMinor } = await app.ledger.balance(customer.wallet.id);
  return { balanceMinor, heldMinor, availableMinor };
}

/**
 * A bank payout of `amount` as the web makes it: the challenge for it first, then the
 * payout with the emailed code. A refused challenge sends no code, and the payout sent
 * without one gets the same refusal (the checks that need no code come first).
 */
async function requestPayoutWithCode(
  customer: TestCustomer,
  amount: string,
  destination: object = {},
) {
  const body = { ...bankDestination, ...destination, amount };
  const challenge = await payoutChallenge(customer, amount, { ...bankDestination, ...destination });
  if (challenge.statusCode !== 200) {
    const withoutCode = await requestPayout(customer.client, body);
    expect(withoutCode.statusCode).toBe(challenge.statusCode);
    expect(withoutCode.json()).toEqual(challenge.json());
    return withoutCode;
  }
  const stepUpCode = await lastStepUpCode(app, customer.body.email);
  return requestPayout(customer.client, { ...body, stepUpCode });
}

function stepUpTraces(customer: TestCustomer) {
  return traces(app.db, { id: customer.user.id, email: customer.body.email });
}

async function pendingPayoutOf(customer: TestCustomer, amount: string): Promise<string> {
  const created = await requestPayoutWithCode(customer, amount);
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id;
}

function errorOf(response: LightMyRequestResponse) {
  return response.json().error as { code: string; message: string; fields?: object };
}

async function systemBalance(kind: 'payout_clearing' | 'fees', currency: string) {
  const id = await app.ledger.systemAccount(kind, toCurrencyCode(currency));
  return (await app.ledger.balance(id)).balanceMinor;
}

describe('withdrawing', () => {
  it('holds amount plus fee at once, then captures it when an admin marks it sent', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '100.00' });
    const clearingBefore = await systemBalance('payout_clearing', 'USD');

    const created = await requestPayoutWithCode(customer, '40.00');
    expect(created.statusCode, created.body).toBe(201);
    const payout = created.json();
    expect(payout).toMatchObject({
      amountMinor: '4000',
      feeMinor: '0',
      currency: 'USD',
      status: 'pending',
      destination: bankDestination,
      decisionReason: null,
    });
    // Held, not gone: the balance stays and only the available part drops.
    expect(await wallet(customer)).toEqual({
      balanceMinor: 10000n,
      heldMinor: 4000n,
      availableMinor: 6000n,
    });
    expect((await customer.client.get('/api/v1/payouts/terms')).json()).toEqual({
      currency: 'USD',
      availableMinor: '6000',
      feeMinor: '0',
    });

    const events: LiveEvent[] = [];
    const stopListening = app.eventHub.subscribe((event) => events.push(event));
    const sent = await admin.client.post(`/api/v1/admin/payouts/${payout.id}/send`, {
      externalReference: 'WIRE-2041',
    });
    // The customer's page hears of it once the decision commits.
    await vi.waitFor(() =>
      expect(events).toContainEqual({ userId: customer.user.id, topics: ['payouts', 'wallet'] }),
    );
    stopListening();
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({
      status: 'sent',
      externalReference: 'WIRE-2041',
      decidedBy: { id: admin.user.id },
    });
    expect(await wallet(customer)).toEqual({
      balanceMinor: 6000n,
      heldMinor: 0n,
      availableMinor: 6000n,
    });
    expect((await systemBalance('payout_clearing', 'USD')) - clearingBefore).toBe(4000n);

    const mine = (await customer.client.get('/api/v1/payouts')).json();
    expect(mine.items).toEqual([
      expect.objectContaining({ id: payout.id, status: 'sent', externalReference: 'WIRE-2041' }),
    ]);
    const transactions = (
      await admin.client.get(`/api/v1/admin/users/${customer.user.id}/transactions`)
    ).json();
    expect(transactions.items[0]).toMatchObject({
      kind: 'payout',
      amountMinor: '-4000',
      memo: 'Withdrawal to First Test Bank account ending 5678 (ref. WIRE-2041)',
    });
    const activity = (await customer.client.get('/api/v1/profile/activity')).json().items;
    expect(activity[0]).toMatchObject({ action: 'payout_sent', isByStaff: true });
  });

  it('releases the hold when an admin rejects, and shows the customer why', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '100.00' });
    const payoutId = await pendingPayoutOf(customer, '70.00');
    expect((await wallet(customer)).availableMinor).toBe(3000n);

    const missingReason = await admin.client.post(`/api/v1/admin/payouts/${payoutId}/reject`, {
      reason: ' ',
    });
    expect(missingReason.statusCode).toBe(400);
    const rejected = await admin.client.post(`/api/v1/admin/payouts/${payoutId}/reject`, {
      reason: 'The account holder name does not match yours',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await wallet(customer)).toEqual({
      balanceMinor: 10000n,
      heldMinor: 0n,
      availableMinor: 10000n,
    });
    const mine = (await customer.client.get('/api/v1/payouts')).json();
    expect(mine.items[0]).toMatchObject({
      id: payoutId,
      status: 'rejected',
      decisionReason: 'The account holder name does not match yours',
    });
    const activity = (await customer.client.get('/api/v1/profile/activity')).json().items;
    expect(activity[0]).toMatchObject({
      action: 'payout_rejected',
      reason: 'The account holder name does not match yours',
    });
    const audit = (
      await admin.client.get(
        `/api/v1/admin/audit?action=payout_rejected&subjectUserId=${customer.user.id}`,
      )
    ).json().items;
    expect(audit[0]).toMatchObject({
      actor: { id: admin.user.id },
      before: { status: 'pending' },
      after: { status: 'rejected', amountMinor: '7000', currency: 'USD' },
    });
  });

  it('lets no staff member send or reject their own payout, as a customer who became staff', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '100.00' });
    const payoutId = await pendingPayoutOf(customer, '70.00');
    await app.db.query("UPDATE users SET role = 'admin' WHERE id = $1", [customer.user.id]);
    const sent = await customer.client.post(`/api/v1/admin/payouts/${payoutId}/send`, {
      externalReference: 'WIRE-OWN',
    });
    const rejected = await customer.client.post(`/api/v1/admin/payouts/${payoutId}/reject`, {
      reason: 'Changed my mind',
    });
    for (const refused of [sent, rejected]) {
      expect(refused.statusCode, refused.body).toBe(403);
      expect(errorOf(refused).code).toBe('own_account');
    }
    expect(await wallet(customer)).toEqual({
      balanceMinor: 10000n,
      heldMinor: 7000n,
      availableMinor: 3000n,
    });
    const byAnother = await admin.client.post(`/api/v1/admin/payouts/${payoutId}/send`, {
      externalReference: 'WIRE-OTHER',
    });
    expect(byAnother.statusCode, byAnother.body).toBe(200);
  });

  it('charges the scheduled fee: held with the amount, captured into the fees account', async () => {
    const customer = await createCustomer(app, { level: 2, country: 'DE', balance: '100.00' });
    expect((await customer.client.get('/api/v1/payouts/terms')).json()).toMatchObject({
      currency: 'EUR',
      feeMinor: '150',
    });
    const feesBefore = await systemBalance('fees', 'EUR');
    const created = await requestPayoutWithCode(customer, '50.00');
    expect(created.json()).toMatchObject({ amountMinor: '5000', feeMinor: '150' });
    expect((await wallet(customer)).heldMinor).toBe(5150n);

    // 48.50 is left; 47.01 plus the fee is a cent too much.
    const tooMuch = await requestPayoutWithCode(customer, '47.01');
    expect(tooMuch.statusCode).toBe(409);
    expect(errorOf(tooMuch).code).toBe('insufficient_funds');

    await admin.client.post(`/api/v1/admin/payouts/${created.json().id}/send`, {
      externalReference: 'SEPA-77',
    });
    expect(await wallet(customer)).toEqual({
      balanceMinor: 4850n,
      heldMinor: 0n,
      availableMinor: 4850n,
    });
    expect((await systemBalance('fees', 'EUR')) - feesBefore).toBe(150n);
  });

  it('refuses amounts that are not positive numbers in the currency’s minor unit', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '10.00' });
    for (const amount of ['abc', '0', '0.00', '-5', '1e3', '', '10.001']) {
      const refused = await requestPayout(customer.client, {
        ...bankDestination,
        amount,
        stepUpCode: '000000',
      });
      expect(refused.statusCode, amount).toBe(400);
      expect(errorOf(refused).message, amount).toBe('Invalid withdrawal amount');
    }
  });

  it('answers a retry with the same key with the first payout, holding once', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '30.00' });
    const stepUpCode = await emailedStepUpCode(app, customer, '10.00');
    const key = newIdempotencyKey();
    const body = { ...bankDestination, amount: '10.00', stepUpCode };
    const [first, second] = await Promise.all([
      requestPayout(customer.client, body, key),
      requestPayout(customer.client, body, key),
    ]);
    expect(first?.statusCode).toBe(201);
    expect(second?.json().id).toBe(first?.json().id);
    const third = await requestPayout(customer.client, body, key);
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(third.json().id).toBe(first?.json().id);
    expect((await wallet(customer)).heldMinor).toBe(1000n);
  });

  it('keeps to the level’s daily payout limit', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '6000.00' });
    expect((await requestPayoutWithCode(customer, '5000.00')).statusCode).toBe(201);
    const over = await requestPayoutWithCode(customer, '0.01');
    expect(over.statusCode).toBe(409);
    expect(errorOf(over).code).toBe('daily_limit_exceeded');
  });

  it('stops counting a rejected payout against the day’s limit', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '6000.00' });
    const payoutId = await pendingPayoutOf(customer, '5000.00');
    const rejected = await admin.client.post(`/api/v1/admin/payouts/${payoutId}/reject`, {
      reason: 'Wrong account',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect((await requestPayoutWithCode(customer, '5000.00')).statusCode).toBe(201);
    expect(errorOf(await requestPayoutWithCode(customer, '0.01')).code).toBe(
      'daily_limit_exceeded',
    );
  });
});

describe('refusals, in PRODUCT.md’s order', () => {
  it('refuses a frozen account with the staff’s reason, before looking at the level', async () => {
    const customer = await createCustomer(app, { balance: '50.00', level: 1 });
    await admin.client.post(`/api/v1/admin/users/${customer.user.id}/freeze`, {
      reason: 'Unusual sign-in activity',
    });
    const refused = await requestPayoutWithCode(customer, '10.00');
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toMatchObject({
      code: 'account_frozen',
      message:
        'Transactions are disabled on your account: Unusual sign-in activity. Contact support to have them re-enabled.',
    });
    expect(await wallet(customer)).toMatchObject({ heldMinor: 0n });
  });

  it('refuses level 1 with the level message before any code is sent', async () => {
    const customer = await createCustomer(app, { balance: '50.00', level: 1 });
    const refused = await requestPayoutWithCode(customer, '10.00');
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toEqual({ code: 'level_too_low', message: levelTooLowMessage });
    expect((await customer.client.get('/api/v1/payouts')).json().items).toEqual([]);
    expect(await stepUpTraces(customer)).toEqual({ codes: 0, emails: 0 });

    await admin.client.post(`/api/v1/admin/users/${customer.user.id}/level`, {
      level: 2,
      reason: 'Identity verified in branch',
    });
    expect((await requestPayoutWithCode(customer, '10.00')).statusCode).toBe(201);
  });

  it('refuses every reason that needs no code before sending one: no code stored, no email', async () => {
    const cases: {
      name: string;
      setUp: () => Promise<TestCustomer>;
      amount: string;
      code: string;
    }[] = [
      {
        name: 'frozen',
        setUp: async () => {
          const customer = await createCustomer(app, { level: 2, balance: '50.00' });
          await admin.client.post(`/api/v1/admin/users/${customer.user.id}/freeze`, {
            reason: 'Checking a document',
          });
          return customer;
        },
        amount: '10.00',
        code: 'account_frozen',
      },
      {
        name: 'email not verified',
        setUp: async () => {
          const customer = await createCustomer(app, { level: 2, balance: '50.00' });
          await app.db.query('UPDATE users SET email_verified_at = NULL WHERE id = $1', [
            customer.user.id,
          ]);
          return customer;
        },
        amount: '10.00',
        code: 'email_not_verified',
      },
      {
        name: 'level',
        setUp: () => createCustomer(app, { balance: '50.00', level: 1 }),
        amount: '10.00',
        code: 'level_too_low',
      },
      {
        name: 'daily limit',
        setUp: () => createCustomer(app, { level: 2, balance: '6000.00' }),
        amount: '5000.01',
        code: 'daily_limit_exceeded',
      },
      {
        name: 'balance',
        setUp: () => createCustomer(app, { level: 2, balance: '50.00' }),
        amount: '50.01',
        code: 'insufficient_funds',
      },
      {
        name: 'limits not configured',
        setUp: () => createCustomer(app, { level: 2, country: 'AF', balance: '50.00' }),
        amount: '10.00',
        code: 'limits_not_configured',
      },
    ];
    for (const { name, setUp, amount, code } of cases) {
      const customer = await setUp();
      const emailsBefore = (await stepUpTraces(customer)).emails;
      const refused = await requestPayoutWithCode(customer, amount);
      expect(errorOf(refused).code, name).toBe(code);
      expect(await stepUpTraces(customer), name).toEqual({ codes: 0, emails: emailsBefore });
    }
  });

  it('refuses a payout above the available balance', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '50.00' });
    const refused = await requestPayoutWithCode(customer, '50.01');
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused)).toEqual({
      code: 'insufficient_funds',
      message: 'Insufficient balance for withdrawal',
    });
    expect(await wallet(customer)).toMatchObject({ heldMinor: 0n, balanceMinor: 5000n });
  });

  it('asks for the code, refuses a wrong one, and allows five tries per emailed code', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '50.00' });
    const withoutCode = await requestPayout(customer.client, {
      ...bankDestination,
      amount: '5.00',
    });
    expect(withoutCode.statusCode).toBe(400);
    expect(errorOf(withoutCode).code).toBe('step_up_required');

    const stepUpCode = await emailedStepUpCode(app, customer, '5.00');
    const wrongCode = stepUpCode === '111111' ? '222222' : '111111';
    // The same key after a wrong code: nothing was stored, so the corrected try goes through.
    const key = newIdempotencyKey();
    const wrong = await requestPayout(
      customer.client,
      { ...bankDestination, amount: '5.00', stepUpCode: wrongCode },
      key,
    );
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong)).toEqual({ code: 'wrong_code', message: wrongCodeMessage });
    const corrected = await requestPayout(
      customer.client,
      { ...bankDestination, amount: '5.00', stepUpCode },
      key,
    );
    expect(corrected.statusCode, corrected.body).toBe(201);
    // Spent: the same code cannot confirm a second payout.
    const reused = await requestPayout(customer.client, {
      ...bankDestination,
      amount: '5.00',
      stepUpCode,
    });
    expect(errorOf(reused).code).toBe('wrong_code');

    const nextCode = await emailedStepUpCode(app, customer, '5.00');
    const nextWrong = nextCode === '111111' ? '222222' : '111111';
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const refused = await requestPayout(customer.client, {
        ...bankDestination,
        amount: '5.00',
        stepUpCode: nextWrong,
      });
      expect(errorOf(refused).message, `try ${attempt}`).toBe(wrongCodeMessage);
    }
    const afterFiveTries = await requestPayout(customer.client, {
      ...bankDestination,
      amount: '5.00',
      stepUpCode: nextCode,
    });
    expect(errorOf(afterFiveTries).code).toBe('wrong_code');
    expect((await wallet(customer)).heldMinor).toBe(500n);
  });
});

describe('a code for one withdrawal', () => {
  it('names its amount and account in the email, and confirms no other', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '100.00' });
    const stepUpCode = await emailedStepUpCode(app, customer, '5.00');
    const { text } = await lastEmailTo(app.db, customer.body.email);
    expect(text).toMatch(
      /Your code to withdraw USD\u00a05\.00 to First Test Bank account ending 5678 is \d{6}\./,
    );
    const changedPayouts: Record<string, string>[] = [
      { ...bankDestination, amount: '50.00' },
      { ...bankDestination, accountNumber: '87654321', amount: '5.00' },
      { method: 'paypal', email: 'someone@example.com', holderName: 'Ada', amount: '5.00' },
    ];
    for (const changed of changedPayouts) {
      const refused = await requestPayout(customer.client, { ...changed, stepUpCode });
      expect(errorOf(refused)).toMatchObject({
        code: 'wrong_code',
        fields: {
          stepUpCode: 'This code was sent for another amount or payee. Ask for a new code.',
        },
      });
    }
    expect((await wallet(customer)).heldMinor).toBe(0n);
    // The bank's name only describes the account: retyped, the code still confirms it.
    const renamed = { ...bankDestination, bankName: 'First Test Bank AG', amount: '5.00' };
    const created = await requestPayout(customer.client, { ...renamed, stepUpCode });
    expect(created.statusCode, created.body).toBe(201);
  });
});

describe('destination fields', () => {
  // A body that passes validation reaches the step-up check: without a code it is
  // answered step_up_required, so nothing is held and no code is needed here.
  const cases: { name: string; destination: Record<string, string>; badField?: string }[] = [
    { name: 'bank digits', destination: bankDestination },
    {
      name: 'a valid IBAN with spaces',
      destination: { ...bankDestination, accountNumber: 'DE89 3704 0044 0532 0130 00' },
    },
    {
      name: 'an IBAN with a wrong check digit',
      destination: { ...bankDestination, accountNumber: 'DE89 3704 0044 0532 0130 01' },
      badField: 'accountNumber',
    },
    {
      name: 'too few digits',
      destination: { ...bankDestination, accountNumber: '12345' },
      badField: 'accountNumber',
    },
    {
      name: 'a bank without a holder name',
      destination: { ...bankDestination, holderName: ' ' },
      badField: 'holderName',
    },
    {
      name: 'PayPal',
      destination: { method: 'paypal', email: 'ada@example.com', holderName: 'Ada' },
    },
    {
      name: 'PayPal with a bad email',
      destination: { method: 'paypal', email: 'ada@', holderName: 'Ada' },
      badField: 'email',
    },
    {
      name: 'a $cashtag',
      destination: { method: 'cashapp', emailOrCashtag: '$ada_1815', holderName: 'Ada' },
    },
    {
      name: 'a CashApp email',
      destination: { method: 'cashapp', emailOrCashtag: 'ada@example.com', holderName: 'Ada' },
    },
    {
      name: 'a cashtag without the $',
      destination: { method: 'cashapp', emailOrCashtag: 'ada_1815', holderName: 'Ada' },
      badField: 'emailOrCashtag',
    },
    {
      name: 'a cashtag starting with a digit',
      destination: { method: 'cashapp', emailOrCashtag: '$1ada', holderName: 'Ada' },
      badField: 'emailOrCashtag',
    },
    {
      name: 'a BTC base58 address',
      destination: { method: 'crypto', coin: 'BTC', address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2' },
    },
    {
      name: 'a BTC bech32 address',
      destination: {
        method: 'crypto',
        coin: 'BTC',
        address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      },
    },
    {
      name: 'a BTC address with a wrong checksum',
      destination: { method: 'crypto', coin: 'BTC', address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3' },
      badField: 'address',
    },
    {
      name: 'a BTC testnet address',
      destination: {
        method: 'crypto',
        coin: 'BTC',
        address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
      },
      badField: 'address',
    },
    {
      name: 'an ETH address with its EIP-55 checksum',
      destination: {
        method: 'crypto',
        coin: 'ETH',
        address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      },
    },
    {
      name: 'an ETH address with a wrong checksum',
      destination: {
        method: 'crypto',
        coin: 'ETH',
        address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
      },
      badField: 'address',
    },
    {
      name: 'USDT to an Ethereum address',
      destination: {
        method: 'crypto',
        coin: 'USDT',
        address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
      },
    },
    {
      name: 'USDT to a Bitcoin address',
      destination: {
        method: 'crypto',
        coin: 'USDT',
        address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
      },
      badField: 'address',
    },
    {
      name: 'an unknown coin',
      destination: {
        method: 'crypto',
        coin: 'DOGE',
        address: 'D8vFz4p1L37jdg47HXKtSHA5uYLYxbGgPD',
      },
      badField: 'coin',
    },
    {
      name: 'an unknown method',
      destination: { method: 'cheque', holderName: 'Ada' },
      badField: 'method',
    },
  ];

  for (const { name, destination, badField } of cases) {
    it(`${badField ? 'refuses' : 'accepts'} ${name}`, async () => {
      const customer = await sharedCustomer();
      const response = await requestPayout(customer.client, { ...destination, amount: '1.00' });
      expect(response.statusCode, response.body).toBe(400);
      const error = errorOf(response);
      if (badField) {
        expect(error.code).toBe('validation_failed');
        expect(Object.keys(error.fields ?? {})).toEqual([badField]);
      } else {
        expect(error.code).toBe('step_up_required');
      }
    });
  }

  let shared: Promise<TestCustomer> | undefined;
  function sharedCustomer(): Promise<TestCustomer> {
    shared ??= createCustomer(app, { level: 2, balance: '10.00' });
    return shared;
  }

  it('names the coin in an address error', async () => {
    const customer = await sharedCustomer();
    const response = await requestPayout(customer.client, {
      method: 'crypto',
      coin: 'ETH',
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
      amount: '1.00',
    });
    expect(errorOf(response).fields).toEqual({ address: 'Enter a valid ETH address' });
  });

  it('keeps the account number without spaces, as the payout’s destination', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '10.00' });
    const created = await requestPayoutWithCode(customer, '1.00', {
      accountNumber: 'de89 3704 0044 0532 0130 00',
    });
    expect(created.json().destination.accountNumber).toBe('DE89370400440532013000');
  });
});

describe('staff', () => {
  it('lists pending payouts oldest first, and drops them once decided', async () => {
    const first = await createCustomer(app, { level: 2, balance: '20.00' });
    const second = await createCustomer(app, { level: 2, balance: '20.00' });
    const firstId = await pendingPayoutOf(first, '1.00');
    const secondId = await pendingPayoutOf(second, '2.00');
    const queue = (await support.client.get('/api/v1/admin/queues/payouts')).json().items;
    const ids = queue.map((payout: { id: string }) => payout.id);
    expect(ids.indexOf(firstId)).toBeLessThan(ids.indexOf(secondId));
    expect(queue.find((payout: { id: string }) => payout.id === secondId)).toMatchObject({
      userId: second.user.id,
      username: second.body.username,
      amountMinor: '200',
    });
    await admin.client.post(`/api/v1/admin/payouts/${firstId}/reject`, { reason: 'Duplicate' });
    const after = (await support.client.get('/api/v1/admin/queues/payouts')).json().items;
    expect(after.map((payout: { id: string }) => payout.id)).not.toContain(firstId);
    const ofFirst = (
      await support.client.get(`/api/v1/admin/users/${first.user.id}/payouts`)
    ).json().items;
    expect(ofFirst).toEqual([
      expect.objectContaining({ id: firstId, status: 'rejected', decidedBy: expect.anything() }),
    ]);
  });

  it('lets support read payouts but not send or reject them', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '20.00' });
    const payoutId = await pendingPayoutOf(customer, '5.00');
    const send = await support.client.post(`/api/v1/admin/payouts/${payoutId}/send`, {
      externalReference: 'X',
    });
    expect(send.statusCode).toBe(403);
    const reject = await support.client.post(`/api/v1/admin/payouts/${payoutId}/reject`, {
      reason: 'No',
    });
    expect(reject.statusCode).toBe(403);
    expect((await wallet(customer)).heldMinor).toBe(500n);
  });

  it('decides a payout once: a second send or a reject after it is a conflict', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '20.00' });
    const payoutId = await pendingPayoutOf(customer, '5.00');
    const missingReference = await admin.client.post(`/api/v1/admin/payouts/${payoutId}/send`, {
      externalReference: '',
    });
    expect(missingReference.statusCode).toBe(400);
    const sent = await admin.client.post(`/api/v1/admin/payouts/${payoutId}/send`, {
      externalReference: 'WIRE-1',
      reason: 'Sent by wire',
    });
    expect(sent.json()).toMatchObject({ status: 'sent', decisionReason: 'Sent by wire' });
    const again = await admin.client.post(`/api/v1/admin/payouts/${payoutId}/send`, {
      externalReference: 'WIRE-2',
    });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('state_conflict');
    const reject = await admin.client.post(`/api/v1/admin/payouts/${payoutId}/reject`, {
      reason: 'Too late',
    });
    expect(reject.statusCode).toBe(409);
    expect(await wallet(customer)).toEqual({
      balanceMinor: 1500n,
      heldMinor: 0n,
      availableMinor: 1500n,
    });
    const unknown = await admin.client.post(
      '/api/v1/admin/payouts/0190f3a0-0000-7000-8000-000000000000/send',
      { externalReference: 'X' },
    );
    expect(unknown.statusCode).toBe(404);
  });
});

describe('privacy', () => {
  it('shows a customer only their own payouts and no staff routes', async () => {
    const owner = await createCustomer(app, { level: 2, balance: '20.00' });
    const payoutId = await pendingPayoutOf(owner, '5.00');
    const other = await signedUpClient(app);
    expect((await other.client.get('/api/v1/payouts')).json()).toEqual({
      items: [],
      nextCursor: null,
    });
    const send = await other.client.post(`/api/v1/admin/payouts/${payoutId}/send`, {
      externalReference: 'X',
    });
    expect(send.statusCode).toBe(404);
    expect((await other.client.get('/api/v1/admin/queues/payouts')).statusCode).toBe(404);
    const ownerList = (await owner.client.get('/api/v1/payouts')).json();
    expect(ownerList.items.map((payout: { id: string }) => payout.id)).toEqual([payoutId]);
  });

  it('pages through a customer’s payouts, newest first', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '20.00' });
    const ids = [
      await pendingPayoutOf(customer, '1.00'),
      await pendingPayoutOf(customer, '2.00'),
      await pendingPayoutOf(customer, '3.00'),
    ];
    const first = (await customer.client.get('/api/v1/payouts?limit=2')).json();
    expect(first.items.map((payout: { id: string }) => payout.id)).toEqual([ids[2], ids[1]]);
    const next = (
      await customer.client.get(`/api/v1/payouts?limit=2&cursor=${first.nextCursor}`)
    ).json();
    expect(next).toEqual({ items: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
  });
});

describe('fee schedule configuration', () => {
  it('parses amounts in each currency and stops start-up on a bad one', () => {
    const config = loadConfig({ COFFER_PAYOUT_FEES: '{"USD":"1.50","JPY":"200"}' });
    expect([...config.payoutFeeMinorByCurrency]).toEqual([
      ['USD', 150n],
      ['JPY', 200n],
    ]);
    expect(loadConfig({}).payoutFeeMinorByCurrency.size).toBe(0);
    for (const schedule of ['{"USD":"1.505"}', '{"XYZ":"1"}', '{"USD":-1}', 'free', '[]']) {
      expect(() => loadConfig({ COFFER_PAYOUT_FEES: schedule }), schedule).toThrow(ConfigError);
      expect(() => loadConfig({ COFFER_PAYOUT_FEES: schedule }), schedule).toThrow(
        /COFFER_PAYOUT_FEES/,
      );
    }
  });
});
