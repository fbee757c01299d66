// Quick Pay's SQL without the API (`npm run bench:quick-pay-sql`, bench/README.md): the
// statement the API sends (features/transfers/queries.ts callQuickPay) between the bench's
// 64 customers and 10,000 bystanders, and PostgreSQL's CPU per payment. Each argument is a
// variant, `name=a.sql+b.sql@notify_user` (SQL files run before each of its rounds,
// statements split at `--> statement-breakpoint`; `@notify_user_pair` calls a function of
// that name with both sides' arguments instead of notify_user twice): the variants
// alternate in one database, so that a change is compared with the tree in the same
// minutes. With no argument the tree alone runs.
// - pgbench mode (default): 8 pgbench clients (`-M prepared`), the whole server's CPU per
//   payment, lock waits and WAL contention included.
// - BENCH_MODE=backend: payments one after another on one connection, the CPU of its
//   backend process alone (/proc), which the machine's other load moves far less.
//   BENCH_BATCHES="1,4s,4" also runs 4 payments per transaction, each in a savepoint ("s")
//   or not: what group commit could save on the server at most.
// - BENCH_MODE=session: serially too, a request's whole database work as the API sends it,
//   two shapes alternating (ADR 057): "two", the session look-up spending the request limit
//   (its own transaction) and then callQuickPay; "one", callQuickPayInSession. Variants
//   are not taken: both are the tree's own statements.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { formatMoney } from '@coffer/contracts/money';
import pg from 'pg';
import { openPostgres, type Queryable } from '../../apps/api/src/db/client.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import {
  callQuickPay,
  callQuickPayInSession,
  type QuickPayArguments,
} from '../../apps/api/src/features/transfers/queries.ts';
import { createLedger } from '../../apps/api/src/ledger/ledger.ts';
import { accessGateSql } from '../../apps/api/src/platform/access.ts';
import { sha256Hex } from '../../apps/api/src/platform/crypto.ts';
import { newId } from '../../apps/api/src/platform/ids.ts';
import { notifyUserParams } from '../../apps/api/src/platform/notifications.ts';
import {
  createSession,
  findActiveSession,
  sessionLookUpParams,
} from '../../apps/api/src/platform/sessions.ts';
import { integerFromEnv } from '../shared/env.ts';
import { readProcessTreeCpuSeconds, sleep } from '../shared/measure.ts';
import { databaseUrl, postmasterPid, recreateDatabase } from '../shared/postgres.ts';
import { type Customer, seedCustomers } from './seed.ts';

const database = 'bench_quick_pay_statement';
const seconds = integerFromEnv('BENCH_SECONDS', 15, { min: 1, max: 600 });
const rounds = integerFromEnv('BENCH_ROUNDS', 2, { min: 1, max: 20 });
const clients = integerFromEnv('BENCH_CLIENTS', 8, { min: 1, max: 64 });
const customers = integerFromEnv('BENCH_CUSTOMERS', 64, { min: 2, max: 10000 });

type Variant = { name: string; files: string[]; notify: 'notify_user' | 'notify_user_pair' };

function parseVariant(argument: string): Variant {
  const [name = '', rest = ''] = argument.split('=');
  const [files = '', notify = 'notify_user'] = rest.split('@');
  if (notify !== 'notify_user' && notify !== 'notify_user_pair') throw new Error(argument);
  return { name, files: files ? files.split('+') : [], notify };
}

// A UUIDv7-like id (time first, as newId() makes them), so index inserts land as the API's do.
const newIdSql = (salt: string) =>
  `(lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0') || '7' ||
    substr(md5(random()::text || '${salt}'), 1, 19))::uuid`;

function notifications(notify: Variant['notify']): string {
  const recipient = `p_id => ${newIdSql('n1')}, p_user_id => q.recipient_user_id,
      p_kind => 'money_received', p_text => 'You received $1.00 by Quick Pay.', p_link => '/dashboard',
      p_email_id => ${newIdSql('e1')}, p_email_subject => 'You received $1.00 by Quick Pay.',
      p_email_body => 'You received $1.00 by Quick Pay.', p_is_email_always => false`;
  const sender = `p_id => ${newIdSql('n2')}, p_user_id => :s_user,
      p_kind => 'money_sent', p_text => 'You sent $1.00 by Quick Pay.', p_link => '/transfer',
      p_email_id => NULL, p_email_subject => 'You sent $1.00 by Quick Pay.',
      p_email_body => 'You sent $1.00 by Quick Pay.', p_is_email_always => false`;
  if (notify === 'notify_user')
    return `CASE WHEN q.is_claimed THEN notify_user(${recipient}) END,
            CASE WHEN q.is_claimed THEN notify_user(${sender}) END`;
  const second = sender.replace(/p_(\w+) =>/g, 'p_$1_2 =>');
  return `CASE WHEN q.is_claimed THEN notify_user_pair(${recipient}, ${second}) END`;
}

function script(variant: Variant): string {
  return `\\set s random(0, ${customers - 1})
\\set r random(1, ${customers - 1})
\\set amount random(1, 200)
SELECT p.user_id AS s_user, p.wallet_id AS s_wallet, o.number AS r_number
  FROM bench_people p, bench_people o WHERE p.i = :s::int AND o.i = (:s::int + :r::int) % ${customers} \\gset
SELECT q.*, ${notifications(variant.notify)}
  FROM quick_pay(
    p_idempotency_scope => 'transfer:' || :s_user::text, p_idempotency_key => gen_random_uuid()::text,
    p_request_hash => md5(random()::text) || md5(random()::text),
    p_entry_id => ${newIdSql('entry')}, p_sender_user_id => :s_user, p_sender_wallet_id => :s_wallet,
    p_recipient_account_number => :r_number, p_recipient_email => NULL,
    p_amount_minor => :amount, p_currency => 'USD', p_memo => 'Quick Pay', p_note => NULL,
    p_daily_limit_minor_by_level => '{1000000000000,1000000000000,1000000000000,1000000000000,1000000000000,1000000000000,1000000000000,1000000000000,1000000000000}'::bigint[],
    p_step_up_code_id => NULL, p_step_up_totp_step => NULL,
    p_response_body => jsonb_build_object('amountMinor', '1', 'currency', 'USD', 'note', NULL),
    p_recipient_lookups_key_hash => md5(:s_user::text) || md5(:s_user::text),
    p_recipient_lookups_max => 30, p_recipient_lookups_window_ms => 900000) q;
`;
}

function pgbench(url: URL, scriptFile: string, runSeconds: number): Promise<number> {
  const bin = process.env.COFFER_PG_BIN_DIR
    ? path.join(process.env.COFFER_PG_BIN_DIR, 'pgbench')
    : 'pgbench';
  const args = [
    '-n',
    '-M',
    'prepared',
    '-c',
    String(clients),
    '-j',
    '2',
    '-T',
    String(runSeconds),
    '-f',
    scriptFile,
  ];
  args.push('-h', url.hostname, '-p', url.port, '-U', decodeURIComponent(url.username), database);
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) },
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('exit', (code) => {
      const processed = /number of transactions actually processed: (\d+)/.exec(output);
      const failed = /number of failed transactions: (\d+)/.exec(output);
      if (code !== 0 || !processed) reject(new Error(`pgbench failed:\n${output}`));
      else {
        if (failed && Number(failed[1]) > 0) console.log(`  (${failed[1]} failed)`);
        resolve(Number(processed[1]));
      }
    });
  });
}

/** The statement of `script`, with $1–$4 for the sender, their wallet, the recipient's number, the amount. */
function statementOf(variant: Variant): string {
  const body = script(variant).split('\\gset\n')[1] ?? '';
  return body
    .replaceAll(':s_user', '$1::uuid')
    .replaceAll(':s_wallet', '$2::uuid')
    .replaceAll(':r_number', '$3::text')
    .replaceAll(':amount', '$4::bigint')
    .replace(/;\s*$/, '');
}

function backendCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of stat; fields[0] here is field 3.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Serial payments on one connection: its backend's CPU per payment, lock waits aside. */
async function backendRounds(
  url: URL,
  variants: Variant[],
  apply: (variant: Variant) => Promise<void>,
  people: { userId: string; walletId: string; accountNumber: string }[],
): Promise<void> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  const pid = Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
  const payments = integerFromEnv('BENCH_PAYMENTS', 2000, { min: 10, max: 1_000_000 });
  const results: Record<string, number[]> = {};
  // BENCH_BATCHES: payments per transaction, each in a subtransaction when followed by "s"
  // ("1,4s,4"; 1: each its own): what group commit would save on the server, at most.
  const batches = (process.env.BENCH_BATCHES ?? '1').split(',').map((text) => ({
    size: Number.parseInt(text, 10),
    savepoints: text.endsWith('s'),
    label: text === '1' ? '' : ` ×${text}`,
  }));
  let batch = 1;
  let savepoints = false;
  const pay = async (variant: Variant, count: number) => {
    for (let index = 0; index < count; index += 1) {
      const sender = people[index % people.length] as (typeof people)[number];
      const recipient = people[
        (index + 1 + (index % 7)) % people.length
      ] as (typeof people)[number];
      if (batch > 1 && index % batch === 0) await client.query('BEGIN');
      if (batch > 1 && savepoints) await client.query('SAVEPOINT payment');
      await client.query({
        name: `pay_${variant.name}`,
        text: statementOf(variant),
        values: [sender.userId, sender.walletId, recipient.accountNumber, 1 + (index % 200)],
      });
      if (batch > 1 && savepoints) await client.query('RELEASE SAVEPOINT payment');
      if (batch > 1 && (index % batch === batch - 1 || index === count - 1)) {
        await client.query('COMMIT');
      }
    }
  };
  for (let round = 0; round < rounds; round += 1) {
    for (const variant of variants) {
      for (const config of batches) {
        batch = config.size;
        savepoints = config.savepoints;
        const name = `${variant.name}${config.label}`;
        await apply(variant);
        await client.query('DISCARD PLANS');
        await pay(variant, 200);
        const before = backendCpuMs(pid);
        await pay(variant, payments);
        const perPayment = (backendCpuMs(pid) - before) / payments;
        results[name] = [...(results[name] ?? []), perPayment];
        console.log(`${name.padEnd(16)} backend CPU ${perPayment.toFixed(3)} ms/payment`);
      }
    }
  }
  for (const [name, values] of Object.entries(results)) {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(
      `${name.padEnd(16)} median ${sorted[sorted.length >> 1]?.toFixed(3)} min ${sorted[0]?.toFixed(3)}`,
    );
  }
  await client.end();
}

/** A pg.Client as the API's query functions take it. */
function queryableOf(client: pg.Client): Queryable {
  return {
    query: async <Row extends Record<string, unknown>>(
      text: string,
      params?: unknown[],
      options?: { preparedName?: string },
    ) => {
      const named = options?.preparedName ? { name: options.preparedName } : {};
      return client.query<Row>({ text, values: params ?? [], ...named });
    },
  };
}

/** A Quick Pay's arguments as the API builds them for a plain payment (features/transfers). */
function benchQuickPay(
  sender: { userId: string; walletId: string },
  recipient: { accountNumber: string },
  amountMinor: bigint,
): QuickPayArguments {
  const config = { publicUrl: 'http://127.0.0.1' };
  const amount = formatMoney({ amountMinor, currency: toCurrencyCode('USD') });
  return {
    claim: { scope: `customer:${sender.userId}`, key: newId(), requestHash: newId() },
    entryId: newId(),
    senderUserId: sender.userId,
    senderWalletId: sender.walletId,
    recipient: { accountNumber: recipient.accountNumber, email: null },
    amountMinor,
    currency: 'USD',
    memo: 'Quick Pay',
    note: null,
    dailyLimitMinorByLevel: Array.from({ length: 9 }, () => '1000000000000'),
    stepUp: { codeId: null, totpStep: null },
    responseBody: { amountMinor: String(amountMinor), currency: 'USD', note: null },
    recipientLookups: {
      keyHash: sha256Hex(`recipient-lookup:${sender.userId}`),
      max: 30,
      windowMs: 900_000,
    },
    notifications: {
      toRecipient: notifyUserParams(
        {
          userId: sender.userId,
          kind: 'money_received',
          text: `You received ${amount} by Quick Pay.`,
          link: '/dashboard',
        },
        config,
      ),
      toSender: notifyUserParams(
        {
          userId: sender.userId,
          kind: 'money_sent',
          text: `You sent ${amount} by Quick Pay.`,
          link: '/transfer',
        },
        config,
      ),
    },
  };
}

/**
 * A request's database work serially, in the two shapes (BENCH_MODE=session): the backend's
 * CPU per payment, alternating rounds as backendRounds does.
 */
async function sessionRounds(url: URL, people: Customer[]): Promise<void> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  const db = queryableOf(client);
  const pid = Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
  const payments = integerFromEnv('BENCH_PAYMENTS', 2000, { min: 10, max: 1_000_000 });
  const tokens: string[] = [];
  for (const person of people) {
    const created = await createSession(db, {
      userId: person.userId,
      userAgent: 'bench',
      ipAddress: undefined,
    });
    tokens.push(created.token);
  }
  // The route's own limit, too high to refuse: what it costs, not what it refuses.
  const limit = { name: 'rate-limit POST /api/v1/transfers', max: 1_000_000_000, windowMs: 60_000 };
  const gate = (alias: string, termsParam: string) =>
    accessGateSql({ access: 'customer' }, alias, termsParam);
  const shapes: Record<string, (index: number) => Promise<void>> = {
    two: async (index) => {
      const { sender, recipient, token } = pairOf(index);
      await findActiveSession(db, token, limit);
      await callQuickPay(db, benchQuickPay(sender, recipient, BigInt(1 + (index % 200))));
    },
    one: async (index) => {
      const { sender, recipient, token } = pairOf(index);
      const lookUp = {
        params: sessionLookUpParams(sha256Hex(token), limit),
        gate,
        termsVersion: null,
      };
      const row = await callQuickPayInSession(
        db,
        lookUp,
        benchQuickPay(sender, recipient, BigInt(1 + (index % 200))),
      );
      if (!row?.is_claimed) throw new Error('a bench payment was not made');
    },
  };
  const pairOf = (index: number) => {
    const sender = people[index % people.length] as Customer;
    const recipient = people[(index + 1 + (index % 7)) % people.length] as Customer;
    return { sender, recipient, token: tokens[index % people.length] as string };
  };
  const results: Record<string, number[]> = {};
  for (let round = 0; round < rounds; round += 1) {
    for (const [name, pay] of Object.entries(shapes)) {
      await client.query('DISCARD PLANS');
      for (let index = 0; index < 200; index += 1) await pay(index);
      const before = backendCpuMs(pid);
      for (let index = 0; index < payments; index += 1) await pay(index);
      const perPayment = (backendCpuMs(pid) - before) / payments;
      results[name] = [...(results[name] ?? []), perPayment];
      console.log(
        `${name.padEnd(16)} backend CPU ${perPayment.toFixed(3)} ms/payment (load ${os.loadavg()[0]?.toFixed(1)})`,
      );
    }
  }
  for (const [name, values] of Object.entries(results)) {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(
      `${name.padEnd(16)} median ${sorted[sorted.length >> 1]?.toFixed(3)} min ${sorted[0]?.toFixed(3)}`,
    );
  }
  await client.end();
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is not set: run through scripts/with-postgres.mjs');
  const variants = process.argv.slice(2).map(parseVariant);
  if (variants.length === 0) variants.push({ name: 'tree', files: [], notify: 'notify_user' });
  const admin = openPostgres(serverUrl, 2);
  const serverPid = await postmasterPid(admin);
  await recreateDatabase(admin, database);
  const url = new URL(databaseUrl(serverUrl, database));
  const db = openPostgres(url.toString(), 4);
  await migrate(db);
  const seeded = await seedCustomers(db, createLedger(db), customers, { bystanderCount: 10_000 });
  await db.query(
    'CREATE TABLE bench_people (i int PRIMARY KEY, user_id uuid, wallet_id uuid, number text)',
  );
  await db.query(
    'INSERT INTO bench_people SELECT i - 1, u, w, n FROM unnest($1::uuid[], $2::uuid[], $3::text[]) WITH ORDINALITY AS x(u, w, n, i)',
    [
      seeded.map((c) => c.userId),
      seeded.map((c) => c.walletId),
      seeded.map((c) => c.accountNumber),
    ],
  );
  const scripts = new Map<string, string>();
  for (const variant of variants) {
    const file = path.join(os.tmpdir(), `quick-pay-statement-${variant.name}.sql`);
    await writeFile(file, script(variant));
    scripts.set(variant.name, file);
  }
  const apply = async (variant: Variant) => {
    for (const file of variant.files) {
      for (const statement of (await readFile(file, 'utf8')).split('--> statement-breakpoint')) {
        if (statement.trim()) await db.query(statement);
      }
    }
  };
  if (process.env.BENCH_MODE === 'session') {
    await sessionRounds(url, seeded);
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.close();
    return;
  }
  if (process.env.BENCH_MODE === 'backend') {
    await apply(variants[0] as Variant);
    await pgbench(url, scripts.get((variants[0] as Variant).name) as string, 10);
    await db.query('VACUUM ANALYZE');
    await backendRounds(url, variants, apply, seeded);
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.close();
    return;
  }
  // History first, as bench:api builds it (ADR 009), then fresh statistics.
  const first = variants[0] as Variant;
  await apply(first);
  console.log(`history: ${await pgbench(url, scripts.get(first.name) as string, 10)} payments`);
  await db.query('VACUUM ANALYZE');
  const results: Record<string, { tps: number; serverCpuMsPerTx: number }[]> = {};
  for (let round = 0; round < rounds; round += 1) {
    for (const variant of variants) {
      await apply(variant);
      await pgbench(url, scripts.get(variant.name) as string, 2); // new connections, warm plans
      // A backend's CPU reaches the postmaster's children total when it is reaped, after its
      // client left: wait for the warm-up's, and after the run for the run's own.
      await sleep(1000);
      const cpuBefore = readProcessTreeCpuSeconds(serverPid);
      const load = os.loadavg()[0]?.toFixed(1);
      const transactions = await pgbench(url, scripts.get(variant.name) as string, seconds);
      await sleep(1000);
      const cpuMs = (readProcessTreeCpuSeconds(serverPid) - cpuBefore) * 1000;
      const result = { tps: transactions / seconds, serverCpuMsPerTx: cpuMs / transactions };
      results[variant.name] = [...(results[variant.name] ?? []), result];
      console.log(
        `${variant.name.padEnd(16)} ${result.tps.toFixed(0).padStart(5)} tps  server CPU ` +
          `${result.serverCpuMsPerTx.toFixed(3)} ms/payment  (load ${load})`,
      );
    }
  }
  console.log(JSON.stringify(results));
  await db.close();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
