// The issuer is a remote party: what another request does between Coffer's decision and the
// issuer's answer must not leave the two disagreeing (ADR 023). The races are staged by an
// issuer that lets a competing request run in the middle of its call.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { issuedCard, requestCard } from '../../../test/cards.ts';
import { createCustomer } from '../../../test/customers.ts';
import { staffClient } from '../../../test/http.ts';
import type { StaffAction } from '../../platform/access.ts';
import { newId } from '../../platform/ids.ts';
import { type CardIssuer, createSandboxIssuer } from './issuer.ts';
import { changeCardFreeze, issueCard } from './lifecycle.ts';
import type { CardDeps } from './shared.ts';

let app: FastifyInstance;
let admin: Awaited<ReturnType<typeof staffClient>>;
let support: Awaited<ReturnType<typeof staffClient>>;

useTestApp(
  async (opened) => {
    ({ app } = opened);
    admin = await staffClient(app, 'admin');
    support = await staffClient(app, 'support');
  },
  { checksAfterEach: 'ledger' },
);

/** The sandbox issuer, with `race` run once, inside the first call named `method`. */
function issuerRacing(method: keyof CardIssuer, race: () => Promise<unknown>): CardIssuer {
  const issuer = createSandboxIssuer(app.db);
  let hasRaced = false;
  const racing = async () => {
    if (hasRaced) return;
    hasRaced = true;
    await race();
  };
  return {
    ...issuer,
    [method]: async (...args: Parameters<CardIssuer[typeof method]>) => {
      await racing();
      // @ts-expect-error -- the arguments are the same method's
      return issuer[method](...args);
    },
  };
}

function depsWith(issuer: CardIssuer): CardDeps {
  return { db: app.db, ledger: app.ledger, config: app.config, issuer, eventHub: app.eventHub };
}

function adminAction(): StaffAction {
  return {
    staff: {
      sessionId: newId(),
      userId: admin.user.id,
      role: 'admin',
      isEmailVerified: true,
      hasTotp: false,
      mustChangePassword: false,
      acceptedTermsVersion: null,
      wallet: null,
    },
    ipAddress: '127.0.0.1',
    reason: '',
  };
}

/** The card as Coffer and as the issuer see it. */
async function bothSides(cardId: string) {
  const found = await app.db.query<{ coffer: string; reason: string | null; issuer: string }>(
    `SELECT c.status AS coffer, c.reason, s.status AS issuer
       FROM cards c JOIN sandbox_issuer_cards s ON s.reference = c.id WHERE c.id = $1`,
    [cardId],
  );
  return found.rows[0];
}

async function issuerCardOf(cardId: string) {
  const found = await app.db.query<{ status: string }>(
    'SELECT status FROM sandbox_issuer_cards WHERE reference = $1',
    [cardId],
  );
  return found.rows[0] ?? null;
}

describe('card freezes racing at the issuer', () => {
  it('a staff freeze landing before a customer’s unfreeze reaches the issuer leaves both frozen', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '1000.00' });
    const { cardId } = await issuedCard(app, customer, admin.client);
    await customer.client.post(`/api/v1/cards/${cardId}/freeze`);
    const staffFreeze = () =>
      support.client.post(`/api/v1/admin/cards/${cardId}/freeze`, { reason: 'Suspected fraud' });
    const issuer = issuerRacing('unfreezeCard', async () => {
      expect((await staffFreeze()).statusCode).toBe(200);
    });
    const answer = await changeCardFreeze(depsWith(issuer), {
      cardId,
      isFrozen: false,
      staffAction: null,
      ownerUserId: customer.user.id,
    });
    // The unfreeze committed first; the customer is answered with the card as it ends.
    expect(answer).toMatchObject({ status: 'frozen', reason: 'Suspected fraud' });
    expect(await bothSides(cardId)).toEqual({
      coffer: 'frozen',
      reason: 'Suspected fraud',
      issuer: 'frozen',
    });
  });
});

describe('issuing to an account frozen after the request', () => {
  const frozenMessage =
    'Transactions are disabled on your account: Suspicious activity. Contact support to have them re-enabled.';

  async function requested() {
    const customer = await createCustomer(app, { level: 2, balance: '1000.00' });
    const cardId: string = (await requestCard(customer)).json().id;
    const freezeAccount = () =>
      admin.client.post(`/api/v1/admin/users/${customer.user.id}/freeze`, {
        reason: 'Suspicious activity',
      });
    return { customer, cardId, freezeAccount };
  }

  it('is refused with the frozen-account words; the card stays requested, its fee held', async () => {
    const { customer, cardId, freezeAccount } = await requested();
    expect((await freezeAccount()).statusCode).toBe(200);
    const refused = await admin.client.post(`/api/v1/admin/cards/${cardId}/issue`, {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'account_frozen', message: frozenMessage });
    expect((await customer.client.get('/api/v1/cards')).json().card.status).toBe('requested');
    expect(await app.ledger.balance(customer.wallet.id)).toMatchObject({ heldMinor: 10_000n });
    expect(await issuerCardOf(cardId)).toBeNull();
  });

  it('is refused when the freeze lands while the issuer makes the card, which it closes again', async () => {
    const { customer, cardId, freezeAccount } = await requested();
    const issuer = issuerRacing('createCard', async () => {
      expect((await freezeAccount()).statusCode).toBe(200);
    });
    const refused = await issueCard(depsWith(issuer), cardId, adminAction()).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: 'account_frozen', message: frozenMessage });
    expect((await customer.client.get('/api/v1/cards')).json().card.status).toBe('requested');
    expect(await app.ledger.balance(customer.wallet.id)).toMatchObject({ heldMinor: 10_000n });
    expect(await issuerCardOf(cardId)).toEqual({ status: 'closed' });
  });
});
