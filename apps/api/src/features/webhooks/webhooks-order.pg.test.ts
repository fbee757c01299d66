// A wallet's deliveries are in the order its money moved, also when postings race: true
// concurrency needs a real server with a connection pool, so this runs on PostgreSQL only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/database.ts';
import { createWallet, deposit, transferLines } from '../../../test/factories.ts';
import type { Database } from '../../db/client.ts';
import { createLedger, type Ledger } from '../../ledger/ledger.ts';
import { AppError } from '../../platform/app-error.ts';
import { newId } from '../../platform/ids.ts';

let db: Database;
let ledger: Ledger;

beforeAll(async () => {
  db = await openTestDatabase({ poolSize: 20 });
  ledger = createLedger(db);
});
afterAll(async () => {
  await db.close();
});

const pairs = 15;
const amountMinor = 100n;

describe('webhook deliveries under concurrency', () => {
  it('numbers a wallet’s deliveries in commit order: each debit after the credit it waited for', async () => {
    await db.query(
      `INSERT INTO webhook_endpoints (id, url, event_types, secret_encrypted, created_by_user_id)
       VALUES ($1, 'https://hooks.example.com/', '{money.deposit,money.transfer}', 'unused', $2)`,
      [newId(), newId()],
    );
    const wallet = await createWallet(ledger);
    const merchant = await createWallet(ledger);
    // Each debit is refused until a credit has committed: it retries until one has.
    const debit = async () => {
      for (;;) {
        try {
          await ledger.post({
            kind: 'transfer',
            memo: 'spend',
            lines: transferLines(wallet, merchant, amountMinor),
          });
          return;
        } catch (error) {
          if (!(error instanceof AppError) || error.code !== 'insufficient_funds') throw error;
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      }
    };
    await Promise.all(
      Array.from({ length: pairs }, () => [deposit(ledger, wallet, amountMinor), debit()]).flat(),
    );

    const found = await db.query<{ amount_minor: string }>(
      `SELECT ev.payload->'data'->>'amountMinor' AS amount_minor
         FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id
        WHERE d.account_id = $1 ORDER BY d.id`,
      [wallet],
    );
    expect(found.rows).toHaveLength(2 * pairs);
    // In delivery order the wallet never goes below zero, as it never did.
    let balanceMinor = 0n;
    for (const row of found.rows) {
      balanceMinor += BigInt(row.amount_minor);
      expect(balanceMinor).toBeGreaterThanOrEqual(0n);
    }
    expect(balanceMinor).toBe(0n);
  });
});
