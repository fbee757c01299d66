// Closing an account while a payment to it arrives, on PostgreSQL where the two truly run
// at once: the closure's check and the payment meet on the wallet's row lock (ADR 050), so
// either the payment lands first and the closure is refused, or the closure wins and the
// payment is refused. Never both, and no money is lost or left in a closed account.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer } from '../../../test/customers.ts';
import { strongPassword } from '../../../test/http.ts';
import { quickPay } from '../../../test/transfers.ts';

let app: FastifyInstance;
useTestApp(
  (opened) => {
    ({ app } = opened);
  },
  { poolSize: 20, checksAfterEach: 'ledger' },
);

const rounds = 12;

function codeOf(response: LightMyRequestResponse): string {
  expect(response.statusCode, response.body).toBeLessThan(500);
  return response.statusCode < 300 ? 'ok' : response.json().error.code;
}

describe('closing while a payment arrives', () => {
  it('lets exactly one of the two through, and conserves the money', async () => {
    const outcomes: Record<string, number> = {};
    for (let round = 0; round < rounds; round += 1) {
      const closing = await createCustomer(app);
      const sender = await createCustomer(app, { balance: '50.00', level: 2 });
      // The closure checks the password first (argon2, tens of milliseconds): the payment
      // starts at a different moment each round so that either may reach the lock first.
      const delayMs = (round % 6) * 15;
      const [closed, paid] = await Promise.all([
        closing.client.post('/api/v1/account-closure', { currentPassword: strongPassword }),
        new Promise<LightMyRequestResponse>((resolve) => {
          setTimeout(
            () =>
              resolve(
                quickPay(sender.client, { recipient: closing.wallet.number, amount: '7.00' }),
              ),
            delayMs,
          );
        }),
      ]);
      const outcome = `${codeOf(closed)}/${codeOf(paid)}`;
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      expect(['ok/recipient_refused', 'account_not_closable/ok']).toContain(outcome);

      const closingBalance = (await app.ledger.balance(closing.wallet.id)).balanceMinor;
      const senderBalance = (await app.ledger.balance(sender.wallet.id)).balanceMinor;
      expect(closingBalance + senderBalance).toBe(5000n);
      expect(closingBalance).toBe(outcome === 'ok/recipient_refused' ? 0n : 700n);
    }
    // Which one wins each round is the scheduler's; every round was one of the two.
    expect(Object.values(outcomes).reduce((sum, count) => sum + count, 0)).toBe(rounds);
  });
});
