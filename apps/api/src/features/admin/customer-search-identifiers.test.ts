// Staff find a customer by what the customer quotes on the phone (issue #31 item 1): the
// account number, phone, a card's last four digits or a dispute reference, matched exactly,
// besides part of the name or email.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { issuedCard } from '../../../test/cards.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { staffClient, type TestClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';

let app: FastifyInstance;
let db: Database;
let admin: TestClient;
let support: TestClient;

useTestApp(async (opened) => {
  ({ app, db } = opened);
  admin = (await staffClient(app, 'admin')).client;
  support = (await staffClient(app, 'support')).client;
});

async function found(term: string, query = ''): Promise<{ ids: string[]; nextCursor: string }> {
  const answer = await support.get(
    `/api/v1/admin/users?search=${encodeURIComponent(term)}${query}`,
  );
  expect(answer.statusCode).toBe(200);
  const page = answer.json();
  return { ids: page.items.map((item: { id: string }) => item.id), nextCursor: page.nextCursor };
}

async function setPhone(customer: TestCustomer, phone: string): Promise<void> {
  await db.query('UPDATE users SET phone = $2 WHERE id = $1', [customer.user.id, phone]);
}

async function setLastFour(cardId: string, lastFour: string): Promise<void> {
  await db.query('UPDATE cards SET last_four = $2 WHERE id = $1', [cardId, lastFour]);
}

describe('staff search by what a customer quotes', () => {
  it('finds a customer by account number, phone, card and dispute reference, exactly', async () => {
    const customer = await createCustomer(app, { balance: '200.00', level: 2 });
    const other = await createCustomer(app, { balance: '200.00', level: 2 });
    await setPhone(customer, '+4915123456789');
    const { cardId } = await issuedCard(app, customer, admin);
    await setLastFour(cardId, '8071');
    const filed = await customer.client.post('/api/v1/disputes', {
      kind: 'general',
      amount: '25.00',
      recipientAccountNumber: other.wallet.number,
      problemType: 'other',
      description: 'The payment never arrived.',
    });
    const reference: string = filed.json().reference;

    const number = customer.wallet.number;
    const grouped = `${number.slice(0, 3)} ${number.slice(3, 6)} ${number.slice(6)}`;
    for (const term of [
      number,
      grouped,
      '+49 151 2345 6789',
      '004915123456789',
      '8071',
      reference,
      reference.toLowerCase(),
      reference.slice('REF-'.length),
    ]) {
      expect((await found(term)).ids, term).toEqual([customer.user.id]);
    }
    // Numbers and references match whole: a part of one finds nobody.
    for (const term of [number.slice(0, 9), '+49151234567', '807', reference.slice(0, 12)]) {
      expect((await found(term)).ids, term).toEqual([]);
    }
  });

  it('still finds names and emails, and a number in an email beside the same number as a card', async () => {
    const byEmail = await createCustomer(app);
    const byCard = await createCustomer(app, { balance: '200.00', level: 2 });
    const email = `m.lopez.5531.${Date.now()}@example.com`;
    await db.query('UPDATE users SET email = $2 WHERE id = $1', [byEmail.user.id, email]);
    await setLastFour((await issuedCard(app, byCard, admin)).cardId, '5531');
    expect((await found('5531')).ids).toEqual([byCard.user.id, byEmail.user.id]);
  });

  it('pages through the customers whose cards share a last four, newest first, each once', async () => {
    const holders: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const customer = await createCustomer(app, { balance: '200.00', level: 2 });
      await setLastFour((await issuedCard(app, customer, admin)).cardId, '1234');
      holders.unshift(customer.user.id);
    }
    const first = await found('1234', '&limit=2');
    expect(first.ids).toEqual(holders.slice(0, 2));
    const second = await found('1234', `&limit=2&cursor=${first.nextCursor}`);
    expect(second.ids).toEqual(holders.slice(2, 4));
    const third = await found('1234', `&limit=2&cursor=${second.nextCursor}`);
    expect(third).toEqual({ ids: holders.slice(4), nextCursor: null });
  });
});
