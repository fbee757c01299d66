// The bank bench:scale measures: a million customers with a year of history. Set-based SQL
// (one INSERT … SELECT per table, staged through unlogged tables), ids and times in the
// order the app would have written them, so indexes and heap look as they would after a
// year of real use. Balances are the sums of the lines, so the ledger's invariants hold.
import { toCurrencyCode } from '@coffer/contracts/currencies';
import type { Database } from '../../apps/api/src/db/client.ts';
import { createLedger } from '../../apps/api/src/ledger/ledger.ts';
import { seedCustomers } from '../admin/seed.ts';

export type ScaleSizes = {
  customers: number;
  /** Merchants (the oldest customers' wallets): the first has `bigMerchantLines` lines. */
  merchants: number;
  bigMerchantLines: number;
  merchantLines: number;
  notifications: number;
  auditEvents: number;
  idempotencyKeys: number;
  cards: number;
};

/** A day of history per this many milliseconds of `yearMs`: one year back from now. */
const yearMs = 365 * 24 * 60 * 60 * 1000;

/** A UUIDv7 from a time in milliseconds (SQL) and a hex tail: ids sort by creation time. */
const uuidV7Sql = (msSql: string, hexSql: string) =>
  `(lpad(to_hex(${msSql}), 12, '0') || '7' || substr(${hexSql}, 1, 3) || '8' || substr(${hexSql}, 4, 15))::uuid`;

async function timed(label: string, step: () => Promise<unknown>): Promise<void> {
  const startedAt = performance.now();
  await step();
  console.log(`  ${label}: ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
}

export async function seedScale(db: Database, sizes: ScaleSizes): Promise<void> {
  await db.query("SET work_mem = '512MB'");
  await db.query("SET maintenance_work_mem = '1GB'");
  await timed(`${sizes.customers} customers with wallets`, () =>
    seedCustomers(db, sizes.customers),
  );
  const settlement = await createLedger(db).systemAccount('settlement', toCurrencyCode('USD'));
  await timed('numbered wallets', async () => {
    await db.query(
      `CREATE UNLOGGED TABLE bench_wallets AS
         SELECT row_number() OVER (ORDER BY a.number) AS k, a.id AS account_id, a.owner_user_id
           FROM accounts a WHERE a.kind = 'customer'`,
    );
    await db.query('ALTER TABLE bench_wallets ADD PRIMARY KEY (k)');
  });
  await timed('opening deposits', () => seedOpeningDeposits(db, settlement));
  await timed('payments to merchants', () => seedMerchantPayments(db, sizes));
  await timed('balances from the lines', () =>
    db.query(
      `UPDATE account_balances b SET balance_minor = s.total
         FROM (SELECT account_id, sum(amount_minor) AS total FROM journal_lines GROUP BY account_id) s
        WHERE b.account_id = s.account_id AND b.bucket = 0`,
    ),
  );
  await timed(`${sizes.notifications} notifications`, () => seedNotifications(db, sizes));
  await timed(`${sizes.auditEvents} audit events`, () => seedAuditEvents(db, sizes));
  await timed(`${sizes.idempotencyKeys} idempotency keys`, () => seedIdempotencyKeys(db, sizes));
  await timed(`${sizes.cards} cards`, () => seedCards(db, sizes));
  await db.query('DROP TABLE bench_wallets');
  // A bulk load leaves every page without hint bits and the visibility map empty; a live
  // database has long been vacuumed, so this one is before anything is measured.
  await timed('VACUUM ANALYZE', () => db.query('VACUUM ANALYZE'));
}

/** Each customer's first line: a deposit from settlement a year and a day ago. */
async function seedOpeningDeposits(db: Database, settlement: string) {
  await db.query(
    `CREATE UNLOGGED TABLE bench_deposits AS
       SELECT k, account_id, ${uuidV7Sql('ms', 'md5(k::text)')} AS entry_id,
              to_timestamp(ms / 1000.0) AS created_at
         FROM (SELECT k, account_id,
                      (extract(epoch FROM now()) * 1000)::bigint - $1::bigint - 86400000 + k AS ms
                 FROM bench_wallets) w`,
    [yearMs],
  );
  await db.query(
    `INSERT INTO journal_entries (id, kind, memo, created_at)
     SELECT entry_id, 'deposit', 'Opening deposit', created_at FROM bench_deposits ORDER BY k`,
  );
  await db.query(
    `INSERT INTO journal_lines (entry_id, account_id, amount_minor, currency, posted_at, kind)
     SELECT d.entry_id, side.account_id, side.amount_minor, 'USD', d.created_at, 'deposit'
       FROM bench_deposits d
      CROSS JOIN LATERAL (VALUES ($1::uuid, -1000000::bigint, 0), (d.account_id, 1000000::bigint, 1))
                 AS side (account_id, amount_minor, position)
      ORDER BY d.k, side.position`,
    [settlement],
  );
  await db.query('DROP TABLE bench_deposits');
}

/**
 * Quick Pays from customers to merchants over the year, in time order: the first merchant
 * gets `bigMerchantLines`, each other one `merchantLines`; the payer is any customer who is
 * not a merchant, spread by a hash, so most have a few lines and some a few dozen.
 */
async function seedMerchantPayments(db: Database, sizes: ScaleSizes) {
  const others = sizes.merchants - 1;
  // Payments come in cycles: of each `cycle` in a row, the first `bigShare` go to the big
  // merchant and the rest one to each other merchant in turn.
  const unit = gcd(sizes.bigMerchantLines, sizes.merchantLines);
  const bigShare = sizes.bigMerchantLines / unit;
  const cycle = bigShare + (others * sizes.merchantLines) / unit;
  const total = sizes.bigMerchantLines + others * sizes.merchantLines;
  await db.query(
    `CREATE UNLOGGED TABLE bench_payments AS
       SELECT n, ${uuidV7Sql('ms', 'md5(n::text)')} AS entry_id, to_timestamp(ms / 1000.0) AS created_at,
              100 + (h % 5000) AS amount_minor,
              CASE WHEN n % $2::bigint < $3::bigint THEN 1
                   ELSE 2 + (n % $2::bigint - $3::bigint) % $4::bigint END AS merchant_k,
              $5::bigint + 1 + (h / 7) % ($6::bigint - $5::bigint) AS payer_k
         FROM (SELECT n, hashtext(n::text)::bigint & 2147483647 AS h,
                      (extract(epoch FROM now()) * 1000)::bigint - $7::bigint + n * $7::bigint / $1::bigint AS ms
                 FROM generate_series(1, $1::bigint) AS n) g`,
    [total, cycle, bigShare, others, sizes.merchants, sizes.customers, yearMs],
  );
  await db.query(
    `INSERT INTO journal_entries (id, kind, memo, created_at)
     SELECT entry_id, 'transfer', 'Quick Pay', created_at FROM bench_payments ORDER BY n`,
  );
  await db.query(
    `INSERT INTO journal_lines (entry_id, account_id, amount_minor, currency, posted_at, kind)
     SELECT p.entry_id, side.account_id, side.amount_minor, 'USD', p.created_at, 'transfer'
       FROM bench_payments p
       JOIN bench_wallets payer ON payer.k = p.payer_k
       JOIN bench_wallets merchant ON merchant.k = p.merchant_k
      CROSS JOIN LATERAL (VALUES (payer.account_id, -p.amount_minor, 0),
                                 (merchant.account_id, p.amount_minor, 1))
                 AS side (account_id, amount_minor, position)
      ORDER BY p.n, side.position`,
  );
  await db.query(
    `INSERT INTO transfers (entry_id, sender_user_id, recipient_user_id, amount_minor, currency, created_at)
     SELECT p.entry_id, payer.owner_user_id, merchant.owner_user_id, p.amount_minor, 'USD', p.created_at
       FROM bench_payments p
       JOIN bench_wallets payer ON payer.k = p.payer_k
       JOIN bench_wallets merchant ON merchant.k = p.merchant_k
      ORDER BY p.n`,
  );
  await db.query('DROP TABLE bench_payments');
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Notifications over the year, to customers by a hash; three in four read. */
async function seedNotifications(db: Database, sizes: ScaleSizes) {
  await db.query(
    `INSERT INTO notifications (id, user_id, kind, text, link, read_at, created_at)
     SELECT ${uuidV7Sql('ms', 'md5(n::text)')}, w.owner_user_id, 'transfer_received',
            'You received a Quick Pay', '/dashboard',
            CASE WHEN n % 4 <> 0 THEN to_timestamp(ms / 1000.0) + interval '1 hour' END,
            to_timestamp(ms / 1000.0)
       FROM (SELECT n, (extract(epoch FROM now()) * 1000)::bigint - $2::bigint + n * $2::bigint / $1::bigint AS ms,
                    1 + (hashtext('n' || n)::bigint & 2147483647) % $3::bigint AS k
               FROM generate_series(1, $1::bigint) AS n) g
       JOIN bench_wallets w ON w.k = g.k
      ORDER BY n`,
    [sizes.notifications, yearMs, sizes.customers],
  );
}

/** A year of staff actions about customers, by one of ten staff ids. */
async function seedAuditEvents(db: Database, sizes: ScaleSizes) {
  await db.query(
    `INSERT INTO audit_events (id, actor_user_id, action, subject_user_id, reason, ip_address, created_at)
     SELECT ${uuidV7Sql('ms', 'md5(n::text)')}, NULL,
            (ARRAY['kyc_approved', 'deposit_posted', 'payout_sent', 'note_added'])[1 + n % 4],
            w.owner_user_id, 'Bench', '127.0.0.1', to_timestamp(ms / 1000.0)
       FROM (SELECT n, (extract(epoch FROM now()) * 1000)::bigint - $2::bigint + n * $2::bigint / $1::bigint AS ms,
                    1 + (hashtext('a' || n)::bigint & 2147483647) % $3::bigint AS k
               FROM generate_series(1, $1::bigint) AS n) g
       JOIN bench_wallets w ON w.k = g.k
      ORDER BY n`,
    [sizes.auditEvents, yearMs, sizes.customers],
  );
}

/** The last 24 hours of money requests' keys (housekeeping removes older ones). */
async function seedIdempotencyKeys(db: Database, sizes: ScaleSizes) {
  await db.query(
    `INSERT INTO idempotency_keys (scope, key, request_hash, response_status, response_body, created_at)
     SELECT 'bench:' || (n % 1000), md5('k' || n), md5('r' || n), 201, '{}',
            now() - interval '1 day' + n * (interval '1 day' / $1)
       FROM generate_series(1, $1::bigint) AS n`,
    [sizes.idempotencyKeys],
  );
}

/** Issued virtual cards for one customer in `customers / cards`. */
async function seedCards(db: Database, sizes: ScaleSizes) {
  await db.query(
    `INSERT INTO cards (id, user_id, account_id, status, issuer_token, last_four, expiry_month,
                        expiry_year, holder_name, currency, fee_minor, weekly_limit_minor, created_at)
     SELECT gen_random_uuid(), w.owner_user_id, w.account_id, 'issued', 'bench-' || w.k,
            lpad((w.k % 10000)::text, 4, '0'), 1 + w.k % 12, 2030, 'BENCH HOLDER', 'USD', 500, 100000,
            now() - interval '200 days'
       FROM bench_wallets w
      WHERE w.k % greatest(1, $1::bigint / $2::bigint) = 0
      LIMIT $2`,
    [sizes.customers, sizes.cards],
  );
}
