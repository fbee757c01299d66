import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/database.ts';
import { transferLines, usd } from '../../test/factories.ts';
import type { Database } from '../db/client.ts';
import { AppError } from '../platform/app-error.ts';
import { type AccountId, createLedger, type HoldId, type Ledger } from './ledger.ts';

const walletCount = 3;

type Operation =
  | { type: 'deposit'; wallet: number; amountMinor: bigint }
  | { type: 'transfer'; from: number; to: number; amountMinor: bigint }
  | { type: 'hold'; wallet: number; amountMinor: bigint }
  | { type: 'capture'; hold: number }
  | { type: 'release'; hold: number };

const walletIndex = fc.integer({ min: 0, max: walletCount - 1 });
const amount = fc.bigInt({ min: 1n, max: 5_000n });
const holdIndex = fc.nat({ max: 9 });

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ type: fc.constant('deposit' as const), wallet: walletIndex, amountMinor: amount }),
  fc.record({
    type: fc.constant('transfer' as const),
    from: walletIndex,
    to: walletIndex,
    amountMinor: amount,
  }),
  fc.record({ type: fc.constant('hold' as const), wallet: walletIndex, amountMinor: amount }),
  fc.record({ type: fc.constant('capture' as const), hold: holdIndex }),
  fc.record({ type: fc.constant('release' as const), hold: holdIndex }),
);

type ModelWallet = { balanceMinor: bigint; heldMinor: bigint };
type ModelHold = { id: HoldId; wallet: number; amountMinor: bigint; isActive: boolean };

let db: Database;
let ledger: Ledger;

beforeAll(async () => {
  db = await openTestDatabase();
  ledger = createLedger(db);
});
afterAll(async () => {
  await db.close();
});

/** What the operation did: 'ok' or the error code the ledger answered with. */
async function outcome(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

it('keeps the books balanced and matches a simple model through any sequence of operations', async () => {
  const settlement = await ledger.systemAccount('settlement', usd);
  const clearing = await ledger.systemAccount('payout_clearing', usd);

  await fc.assert(
    fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 25 }), async (operations) => {
      const wallets: AccountId[] = [];
      for (let index = 0; index < walletCount; index += 1) {
        wallets.push((await ledger.openWallet(crypto.randomUUID(), usd)).id);
      }
      const model: ModelWallet[] = wallets.map(() => ({ balanceMinor: 0n, heldMinor: 0n }));
      const holds: ModelHold[] = [];
      const availableIn = (index: number) =>
        (model[index]?.balanceMinor ?? 0n) - (model[index]?.heldMinor ?? 0n);
      const walletAt = (index: number) => wallets[index] as AccountId;
      const modelAt = (index: number) => model[index] as ModelWallet;

      for (const step of operations) {
        let expected: string;
        let actual: string;
        switch (step.type) {
          case 'deposit': {
            expected = 'ok';
            actual = await outcome(() =>
              ledger.post({
                kind: 'deposit',
                memo: 'deposit',
                lines: transferLines(settlement, walletAt(step.wallet), step.amountMinor),
              }),
            );
            if (actual === 'ok') modelAt(step.wallet).balanceMinor += step.amountMinor;
            break;
          }
          case 'transfer': {
            const isSameWallet = step.from === step.to;
            expected =
              isSameWallet || availableIn(step.from) >= step.amountMinor
                ? 'ok'
                : 'insufficient_funds';
            actual = await outcome(() =>
              ledger.post({
                kind: 'transfer',
                memo: 'transfer',
                lines: transferLines(walletAt(step.from), walletAt(step.to), step.amountMinor),
              }),
            );
            if (actual === 'ok') {
              modelAt(step.from).balanceMinor -= step.amountMinor;
              modelAt(step.to).balanceMinor += step.amountMinor;
            }
            break;
          }
          case 'hold': {
            expected = availableIn(step.wallet) >= step.amountMinor ? 'ok' : 'insufficient_funds';
            let holdId: HoldId | undefined;
            actual = await outcome(async () => {
              holdId = await ledger.hold({
                accountId: walletAt(step.wallet),
                amountMinor: step.amountMinor,
                reason: 'test',
              });
            });
            if (holdId) {
              modelAt(step.wallet).heldMinor += step.amountMinor;
              holds.push({
                id: holdId,
                wallet: step.wallet,
                amountMinor: step.amountMinor,
                isActive: true,
              });
            }
            break;
          }
          case 'capture':
          case 'release': {
            const hold = holds[step.hold % Math.max(holds.length, 1)];
            if (!hold) continue;
            expected = hold.isActive ? 'ok' : 'hold_not_active';
            actual = await outcome(() =>
              step.type === 'capture'
                ? ledger.capture(hold.id, {
                    kind: 'payout',
                    memo: 'payout',
                    lines: transferLines(walletAt(hold.wallet), clearing, hold.amountMinor),
                  })
                : ledger.release(hold.id),
            );
            if (actual === 'ok') {
              hold.isActive = false;
              modelAt(hold.wallet).heldMinor -= hold.amountMinor;
              if (step.type === 'capture') modelAt(hold.wallet).balanceMinor -= hold.amountMinor;
            }
            break;
          }
        }
        expect(
          actual,
          JSON.stringify(step, (_, value) => (typeof value === 'bigint' ? `${value}n` : value)),
        ).toBe(expected);
        expect(await ledger.checkInvariants()).toEqual([]);
      }

      for (const [index, accountId] of wallets.entries()) {
        const balance = await ledger.balance(accountId);
        expect({ balanceMinor: balance.balanceMinor, heldMinor: balance.heldMinor }).toEqual(
          model[index],
        );
      }
    }),
    { numRuns: 25 },
  );
});
