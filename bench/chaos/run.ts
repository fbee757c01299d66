// `npm run chaos`: the crash-safety harness (issue #18). Starts PostgreSQL and two API
// instances on it, drives a mixed money load over HTTP (load.ts) while it kills an API
// instance with SIGKILL or stops PostgreSQL with `pg_ctl stop -m immediate` on a printed
// schedule, restarting each, then checks that every acknowledged request took effect
// exactly once, refused ones not at all, money is conserved, holds match pending payouts
// and approved card authorizations, loans owe what they lent less what was repaid, and the
// books balance (verdict.ts). Exits non-zero on any violation or too few faults.
// `npm run chaos -- --failover` runs on the HA set-up of `npm run ha` instead (Patroni,
// etcd, HAProxy; docs/decisions/037): every fault kills the primary's Patroni and
// PostgreSQL with SIGKILL, waits for the standby's promotion and brings the old primary
// back as the synchronous standby; the figures add, per failover, the time from the kill
// to the first acknowledged Quick Pay.
// Settings (environment): CHAOS_SECONDS, CHAOS_FAULT_INTERVAL_SECONDS, CHAOS_WORKERS,
// CHAOS_CUSTOMERS, CHAOS_FAULTS_MIN (of each kind); in failover mode, CHAOS_FAILOVERS: that
// many failovers, each after CHAOS_FAULT_INTERVAL_SECONDS of load with both nodes up, and
// the load stops as soon as a Quick Pay sent after the last kill is acknowledged (the last
// node killed is left down; CHAOS_SECONDS still bounds the run). The suite's short run.

import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { parseAmount } from '@coffer/contracts/money';
import { type Database, openPostgres } from '../../apps/api/src/db/client.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import { insertUser } from '../../apps/api/src/features/auth/queries.ts';
import { payoutToConfirm } from '../../apps/api/src/features/payouts/service.ts';
import { paymentHashOf } from '../../apps/api/src/features/step-up/service.ts';
import { createLedger } from '../../apps/api/src/ledger/ledger.ts';
import { sha256Hex } from '../../apps/api/src/platform/crypto.ts';
import { newId } from '../../apps/api/src/platform/ids.ts';
import { hashPassword } from '../../apps/api/src/platform/passwords.ts';
import { openEventStream } from '../../apps/api/test/event-streams.ts';
import { startHaCluster } from '../../scripts/ha-cluster.mjs';
import { startPostgres } from '../../scripts/postgres-server.mjs';
import { type ApiServer, logIn, startApi } from '../api/api-server.ts';
import { repoRoot } from '../api/config.ts';
import { type Customer, customerPassword, seedCustomers, totalBalanceMinor } from '../api/seed.ts';
import { integerFromEnv } from '../shared/env.ts';
import { readFacts } from './facts.ts';
import { type ChaosActors, type Cluster, chaosPayout, chaosStepUpCode, runLoad } from './load.ts';
import { judge, type RequestRecord } from './verdict.ts';

const config = {
  seconds: integerFromEnv('CHAOS_SECONDS', 300, { min: 10, max: 3_600 }),
  faultIntervalSeconds: integerFromEnv('CHAOS_FAULT_INTERVAL_SECONDS', 12, { min: 2, max: 600 }),
  workers: integerFromEnv('CHAOS_WORKERS', 6, { min: 1, max: 64 }),
  customers: integerFromEnv('CHAOS_CUSTOMERS', 20, { min: 2, max: 1_000 }),
  faultsMin: integerFromEnv('CHAOS_FAULTS_MIN', 10, { min: 0, max: 1_000 }),
  /** 0: failovers every interval for CHAOS_SECONDS. */
  failovers: integerFromEnv('CHAOS_FAILOVERS', 0, { min: 0, max: 100 }),
};
const isFailoverMode = process.argv.includes('--failover');
/** Unanswered requests are retried this long after the load stops. */
const retryGraceMs = 60_000;
const staffPassword = 'Chaos-Staff-Password-2026!';
/** Every instance's COFFER_ISSUING_SECRET; the load signs the processor's requests with it. */
const issuingSecret = randomBytes(32).toString('hex');

type FaultKind = 'api-sigkill' | 'postgres-immediate-stop' | 'postgres-failover';
type Fault = { atMs: number; kind: FaultKind; instance: number };

const intervalMs = config.faultIntervalSeconds * 1000;
/** CHAOS_FAILOVERS: a fixed number of failovers, the load ending after the last. */
const isCountedFailovers = isFailoverMode && config.failovers > 0;

/**
 * Faults every interval, alternating kinds, each kill on the other instance than the last;
 * in failover mode, a failover every interval (each waits for the one before to end), or
 * CHAOS_FAILOVERS of them, each timed from the end of the one before.
 */
function faultSchedule(): Fault[] {
  if (isCountedFailovers) {
    return Array.from({ length: config.failovers }, (_, index) => ({
      atMs: (index + 1) * intervalMs,
      kind: 'postgres-failover',
      instance: 0,
    }));
  }
  const faults: Fault[] = [];
  for (let atMs = intervalMs; atMs < config.seconds * 1000; atMs += intervalMs) {
    const index = faults.length;
    const kind = isFailoverMode
      ? 'postgres-failover'
      : index % 2 === 0
        ? 'api-sigkill'
        : 'postgres-immediate-stop';
    faults.push({ atMs, kind, instance: Math.floor(index / 2) % 2 });
  }
  return faults;
}

/** The issuer's token of a customer's planted card. */
const cardTokenOf = (customer: { userId: string }) => `chaos-card-${customer.userId}`;

/**
 * An issued card for every customer, as if the issuer had created it, with a weekly limit
 * no run reaches: the load's authorizations are decided by the wallet's balance alone.
 */
async function plantCards(db: Database, customers: Customer[]) {
  await db.query(
    `INSERT INTO cards (id, user_id, account_id, status, issuer_token, last_four, expiry_month,
                        expiry_year, holder_name, currency, fee_minor, weekly_limit_minor)
     SELECT gen_random_uuid(), c.user_id, c.account_id, 'issued', c.token,
            '4242', 12, 2030, 'CHAOS CUSTOMER', 'USD', 0, 1000000000
       FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS c(user_id, account_id, token)`,
    [
      customers.map((customer) => customer.userId),
      customers.map((customer) => customer.walletId),
      customers.map(cardTokenOf),
    ],
  );
}

/** Every customer's loan: USD 200.00 over 12 months, repaid a few cents at a time. */
const chaosLoan = { amountMinor: 20_000n, months: 12, annualRateBp: 1_200 };

/**
 * An approved loan for every customer (eligibility set, applied, approved by the chaos
 * admin), as the loans queue would leave it; the admin pays each out over HTTP before the
 * load (disburseLoans), so its schedule is the one the API makes. Returns each loan's id
 * by its customer.
 */
async function plantApprovedLoans(
  db: Database,
  customers: Customer[],
  adminUserId: string,
): Promise<Map<string, string>> {
  const loanIds = new Map(customers.map((customer) => [customer.userId, newId()]));
  const userIds = [...loanIds.keys()];
  await db.query(
    `INSERT INTO loan_eligibilities (user_id, amount_minor, currency, reason, set_by_user_id)
     SELECT u.id, $2, 'USD', 'Chaos run', $3 FROM unnest($1::uuid[]) AS u(id)`,
    [userIds, chaosLoan.amountMinor, adminUserId],
  );
  await db.query(
    `INSERT INTO loans (id, user_id, currency, amount_minor, monthly_salary_minor, months,
                        annual_rate_bp, full_name, phone, address, status, decided_by_user_id,
                        decided_at)
     SELECT l.id, l.user_id, 'USD', $3, 400000, $4, $5, 'Chaos Customer', '+1 555 0100',
            '1 Chaos Street', 'approved', $6, now()
       FROM unnest($1::uuid[], $2::uuid[]) AS l(id, user_id)`,
    [
      [...loanIds.values()],
      userIds,
      chaosLoan.amountMinor,
      chaosLoan.months,
      chaosLoan.annualRateBp,
      adminUserId,
    ],
  );
  return loanIds;
}

/** Customers as the benchmark seeds them, plus planted step-up codes, cards and loans. */
async function seed(db: Database) {
  const customers = await seedCustomers(db, createLedger(db), config.customers);
  const currency = toCurrencyCode('USD');
  const { amount, ...destination } = chaosPayout;
  const payment = payoutToConfirm(
    { amountMinor: parseAmount(amount, currency), currency },
    { ...destination, bankName: 'any' },
  );
  await db.query(
    `INSERT INTO step_up_codes (id, user_id, purpose, code_hash, payment_hash, expires_at)
     SELECT gen_random_uuid(), u.id, 'payout', $2, $3, now() + interval '6 hours'
       FROM unnest($1::uuid[]) AS u(id), generate_series(1, 500)`,
    [
      customers.map((customer) => customer.userId),
      sha256Hex(chaosStepUpCode),
      paymentHashOf('payout', payment),
    ],
  );
  await plantCards(db, customers);
  const passwordHash = await hashPassword(staffPassword);
  const staff = { support: 'chaos-support@coffer.test', admin: 'chaos-admin@coffer.test' };
  const staffIds = { support: newId(), admin: newId() };
  for (const role of ['support', 'admin'] as const) {
    await insertUser(db, {
      id: staffIds[role],
      username: `Chaos ${role}`,
      email: staff[role],
      phone: null,
      country: 'US',
      role,
      passwordHash,
      isEmailVerified: true,
    });
  }
  const loanIds = await plantApprovedLoans(db, customers, staffIds.admin);
  return { customers, staff, loanIds };
}

/**
 * The admin pays out every planted loan through the API, before the wallets' starting
 * total is taken. Each must be paid at once: a loan left for a second admin would leave
 * its customer's repayments refused.
 */
async function disburseLoans(baseUrl: string, actors: ChaosActors): Promise<void> {
  for (const customer of actors.customers) {
    const response = await fetch(`${baseUrl}/api/v1/admin/loans/${customer.loanId}/disburse`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: actors.adminCookie,
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({ reason: 'Chaos run' }),
    });
    const body = (await response.json()) as { status?: string };
    if (response.status !== 200 || body.status !== 'disbursed') {
      throw new Error(
        `disbursing the chaos loan ${customer.loanId} answered ${response.status} ${JSON.stringify(body)}`,
      );
    }
  }
}

/** One of the two instances a load balancer sends to; `server` is null while it is down. */
type Slot = { server: ApiServer | null };

async function signIn(
  baseUrl: string,
  { customers, staff, loanIds }: Awaited<ReturnType<typeof seed>>,
): Promise<ChaosActors> {
  const signedIn = [];
  for (const customer of customers) {
    const loanId = loanIds.get(customer.userId);
    if (!loanId) throw new Error(`no chaos loan planted for ${customer.email}`);
    const cookie = await logIn(baseUrl, { email: customer.email, password: customerPassword });
    signedIn.push({
      userId: customer.userId,
      accountNumber: customer.accountNumber,
      cookie,
      cardToken: cardTokenOf(customer),
      loanId,
    });
  }
  return {
    customers: signedIn,
    issuingSecret,
    supportCookie: await logIn(baseUrl, { email: staff.support, password: staffPassword }),
    adminCookie: await logIn(baseUrl, { email: staff.admin, password: staffPassword }),
  };
}

const liveEventWaitMs = 10_000;
/** Streams the server may end (it missed events while its LISTEN was away) before one hears. */
const liveEventAttemptsMax = 3;

/**
 * Opens the recipient's stream on one instance, sends them a Quick Pay through the other,
 * and says what the stream did: heard the payment, or was ended by the server (it missed
 * events and the browser must refetch), or neither in time.
 */
async function hearQuickPay(
  streamUrl: string,
  payUrl: string,
  [recipient, sender]: [ChaosActors['customers'][number], ChaosActors['customers'][number]],
): Promise<'heard' | 'stream ended' | 'not heard' | `answered ${number}`> {
  const stream = await openEventStream(streamUrl, '/api/v1/events', recipient.cookie);
  try {
    const paid = await fetch(`${payUrl}/api/v1/transfers`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: sender.cookie,
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({ recipient: recipient.accountNumber, amount: '0.01' }),
    });
    if (paid.status !== 201) return `answered ${paid.status}`;
    return await Promise.race([
      stream.nextEvent(liveEventWaitMs).then(
        (event) => (event.userId === recipient.userId ? 'heard' : 'not heard'),
        () => 'not heard' as const,
      ),
      stream
        .endsWithin(liveEventWaitMs)
        .then((isEnded) => (isEnded ? 'stream ended' : 'not heard')),
    ]);
  } finally {
    stream.close();
  }
}

/**
 * After the faults, each instance still hears what the other commits: a Quick Pay sent
 * through one reaches its recipient's stream on the other (LISTEN/NOTIFY survived the
 * database restarts). An instance whose LISTEN connection came back only now ends its
 * streams instead, which sends browsers to refetch what they show: the check then opens
 * the stream again and pays again. Returns a violation per instance that heard nothing.
 */
async function liveEventViolations(cluster: Cluster, actors: ChaosActors): Promise<string[]> {
  const [recipient, sender] = actors.customers;
  if (!recipient || !sender) return ['live events: too few customers to check'];
  const urls = cluster.liveUrls();
  const violations: string[] = [];
  for (const [index, streamUrl] of urls.entries()) {
    const payUrl = urls[(index + 1) % urls.length] ?? streamUrl;
    const outcomes = [];
    for (let attempt = 0; attempt < liveEventAttemptsMax; attempt += 1) {
      const outcome = await hearQuickPay(streamUrl, payUrl, [recipient, sender]);
      outcomes.push(outcome);
      if (outcome !== 'stream ended') break;
    }
    if (outcomes.at(-1) !== 'heard') {
      violations.push(
        `live events: Quick Pays on ${payUrl} not heard on ${streamUrl}: ${outcomes.join(', ')}`,
      );
    }
  }
  return violations;
}

/** When this record's Quick Pay was acknowledged, if it was one sent after `killedAtMs`. */
function quickPayAckedAfter(record: RequestRecord, killedAtMs: number): number | null {
  return record.kind === 'quick-pay' && record.acked && record.acked.sentAtMs > killedAtMs
    ? record.acked.atMs
    : null;
}

/**
 * Per failover, the time from the kill to the first Quick Pay sent after it and
 * acknowledged (null when none was).
 */
function recoveryTimesMs(killedAtMs: number[], records: RequestRecord[]): (number | null)[] {
  return killedAtMs.map((killedAt) => {
    const after = records.flatMap((record) => quickPayAckedAfter(record, killedAt) ?? []);
    return after.length === 0 ? null : Math.min(...after) - killedAt;
  });
}

function elapsed(startMs: number): string {
  return `${((Date.now() - startMs) / 1000).toFixed(1).padStart(6)} s`;
}

async function main(): Promise<number> {
  const schedule = faultSchedule();
  console.log('chaos run:', config);
  if (isCountedFailovers) {
    console.log(
      `${config.failovers} failovers, each after ${config.faultIntervalSeconds} s of load with ` +
        'both nodes up; the load stops once a Quick Pay sent after the last kill is acknowledged',
    );
  } else {
    console.log('fault schedule (seconds after the load starts):');
    for (const fault of schedule) {
      const target = fault.kind === 'api-sigkill' ? ` instance ${'AB'[fault.instance]}` : '';
      console.log(`  ${(fault.atMs / 1000).toFixed(0).padStart(5)}  ${fault.kind}${target}`);
    }
  }

  const setupStartMs = Date.now();
  const postgres = isFailoverMode ? null : await startPostgres();
  const ha = isFailoverMode ? await startHaCluster() : null;
  const databaseUrl = postgres?.url ?? ha?.url ?? '';
  console.log(`${elapsed(setupStartMs)}  set-up: database up`);
  const slots: Slot[] = [{ server: null }, { server: null }];
  try {
    // Settings every instance must share (docs/SEVERAL-INSTANCES.md).
    const instanceEnv = {
      COFFER_SECRET_KEY: randomBytes(32).toString('hex'),
      COFFER_ISSUING_SECRET: issuingSecret,
      // The admin pays out every customer's loan at once, whatever CHAOS_CUSTOMERS says.
      COFFER_FOUR_EYES_DAILY_TOTAL: JSON.stringify({ USD: '1000000.00' }),
    };
    const start = () =>
      startApi({
        databaseUrl,
        poolSize: 10,
        webDistDir: path.join(repoRoot, 'apps/web/dist'),
        cpuProfileDir: null,
        env: instanceEnv,
      });
    const setupDb = openPostgres(databaseUrl, 4);
    await migrate(setupDb);
    // The instances start (and find the schema current) while the customers are seeded.
    const [seeded] = await Promise.all([
      seed(setupDb),
      ...slots.map(async (slot) => {
        slot.server = await start();
      }),
    ]);
    console.log(`${elapsed(setupStartMs)}  set-up: seeded, both instances up`);
    const firstUrl = slots[0]?.server?.baseUrl ?? '';
    const actors = await signIn(firstUrl, seeded);
    await disburseLoans(firstUrl, actors);
    console.log(`${elapsed(setupStartMs)}  set-up: signed in, loans paid out`);
    const { customers } = seeded;
    const wallets = {
      walletIds: customers.map((customer) => customer.walletId),
      startTotalMinor: await totalBalanceMinor(setupDb, customers),
    };
    await setupDb.close();

    const cluster = {
      liveUrls: () => slots.flatMap((slot) => (slot.server ? [slot.server.baseUrl] : [])),
    };
    const startMs = Date.now();
    const stopLoad = new AbortController();
    const loadTimer = setTimeout(() => stopLoad.abort(), config.seconds * 1000);
    const injected: Record<FaultKind, number> = {
      'api-sigkill': 0,
      'postgres-immediate-stop': 0,
      'postgres-failover': 0,
    };
    const killedAtMs: number[] = [];

    const injectFaults = async () => {
      // When both database nodes were last up (counted failovers are timed from it).
      let wholeSinceMs = startMs;
      for (const fault of schedule) {
        const dueAtMs = isCountedFailovers ? wholeSinceMs + intervalMs : startMs + fault.atMs;
        await sleep(Math.max(0, dueAtMs - Date.now()));
        // A failover waits for the one before it, the old primary's return included: one
        // that would start after the load has stopped would measure nothing.
        if (isFailoverMode && stopLoad.signal.aborted) break;
        if (fault.kind === 'api-sigkill') {
          const slot = slots[fault.instance];
          const victim = slot?.server;
          if (!slot || !victim) continue;
          slot.server = null;
          process.kill(victim.pid, 'SIGKILL');
          console.log(`${elapsed(startMs)}  SIGKILL API instance ${'AB'[fault.instance]}`);
          await sleep(500);
          slot.server = await start();
          console.log(`${elapsed(startMs)}  API instance ${'AB'[fault.instance]} is back`);
        } else if (fault.kind === 'postgres-failover' && ha) {
          // Timed from the kill itself: finding the primary first takes a moment, in which
          // payments still succeed.
          const killed = await ha.killPrimary();
          killedAtMs.push(Date.now());
          console.log(`${elapsed(startMs)}  SIGKILL primary ${killed} (Patroni and PostgreSQL)`);
          const promoted = await ha.waitForPrimary(killed);
          console.log(`${elapsed(startMs)}  ${promoted} promoted`);
          // After the last counted one, the load ends on the first Quick Pay it acknowledges
          // (onAcked below), and nothing waits for the killed node.
          if (!isCountedFailovers || killedAtMs.length < config.failovers) {
            await ha.restartNode(killed);
            wholeSinceMs = Date.now();
            console.log(`${elapsed(startMs)}  ${killed} back as the synchronous standby`);
          }
        } else if (postgres) {
          await postgres.stopImmediately();
          console.log(`${elapsed(startMs)}  PostgreSQL stopped (immediate)`);
          await sleep(1_000);
          await postgres.startAgain();
          console.log(`${elapsed(startMs)}  PostgreSQL is back`);
        }
        injected[fault.kind] += 1;
      }
    };

    const [load] = await Promise.all([
      runLoad({
        cluster,
        actors,
        workerCount: config.workers,
        stop: stopLoad.signal,
        retryGraceMs,
        onAcked: (record) => {
          const lastKillAtMs = killedAtMs.at(-1);
          const isLastFailover = isCountedFailovers && killedAtMs.length === config.failovers;
          if (isLastFailover && lastKillAtMs !== undefined) {
            if (quickPayAckedAfter(record, lastKillAtMs) !== null) stopLoad.abort();
          }
        },
      }),
      injectFaults(),
    ]);
    clearTimeout(loadTimer);
    console.log(`${elapsed(startMs)}  load finished; checking`);
    const eventViolations = await liveEventViolations(cluster, actors);
    for (const slot of slots) await slot.server?.stop();

    const checkDb = openPostgres(databaseUrl, 2);
    const judged = judge(load.records, await readFacts(checkDb, load.records, wallets));
    const verdict = { ...judged, violations: [...judged.violations, ...eventViolations] };
    await checkDb.close();

    const byKind = new Map<string, number>();
    const refusals = new Map<string, number>();
    for (const record of load.records) {
      byKind.set(record.kind, (byKind.get(record.kind) ?? 0) + 1);
      const refusal = record.refusalCode && `${record.kind} ${record.refusalCode}`;
      if (refusal) refusals.set(refusal, (refusals.get(refusal) ?? 0) + 1);
    }
    console.log('\nfigures');
    console.log(`  requests sent        ${verdict.sent}`);
    console.log(
      `    by kind            ${[...byKind].map(([kind, n]) => `${kind} ${n}`).join(', ')}`,
    );
    console.log(`  acknowledged         ${verdict.acked}`);
    const ackedByKind = Map.groupBy(
      load.records.filter((record) => record.acked),
      (record) => record.kind,
    );
    console.log(
      `    by kind            ${[...ackedByKind].map(([kind, acked]) => `${kind} ${acked.length}`).join(', ')}`,
    );
    console.log(
      `  refused, by code     ${[...refusals].map(([code, n]) => `${code} ${n}`).join(', ')}`,
    );
    console.log(`  retried              ${verdict.retried}`);
    console.log(`  outcome unknown      ${verdict.unknown}`);
    console.log(`  API SIGKILLs         ${injected['api-sigkill']}`);
    console.log(`  PostgreSQL stops     ${injected['postgres-immediate-stop']}`);
    console.log(`  failovers            ${injected['postgres-failover']}`);
    const recoveries = recoveryTimesMs(killedAtMs, load.records);
    if (recoveries.length > 0) {
      const seconds = (ms: number | null) => (ms === null ? 'none' : `${(ms / 1000).toFixed(1)} s`);
      console.log(
        `  kill to first Quick Pay acknowledged, per failover: ${recoveries.map(seconds).join(', ')}`,
      );
    }
    console.log(`  violations           ${verdict.violations.length}`);
    for (const violation of verdict.violations.slice(0, 50)) console.log(`    ${violation}`);

    const kindsRun: FaultKind[] = isFailoverMode
      ? ['postgres-failover']
      : ['api-sigkill', 'postgres-immediate-stop'];
    const tooFewFaults = kindsRun.some((kind) => injected[kind] < config.faultsMin);
    if (tooFewFaults) console.log(`fewer than ${config.faultsMin} faults of each kind`);
    return verdict.violations.length === 0 && !tooFewFaults ? 0 : 1;
  } finally {
    for (const slot of slots) await slot.server?.stop();
    postgres?.stop();
    await ha?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
