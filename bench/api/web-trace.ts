// Main-thread CPU of the server-rendered pages at first load, from Chromium traces: what
// Lighthouse's total blocking time is made of, measured in a way a busy machine moves less
// (docs/decisions/031). Each task's thread time (CPU, not wall time) counts, summed as
// Lighthouse would after a 4× and an 8× slowdown. Several builds of the web app can be
// compared side by side: one API each over the same database, pages loaded alternately.
//
//   node scripts/with-postgres.mjs -- npx tsx bench/api/web-trace.ts DIR [DIR…]
//
// where each DIR is a `vite build --outDir DIR` of apps/web. Environment:
//   TRACE_PAGES     dashboard,transfer,statements,profile,admin-customers,admin-customer
//   TRACE_LANGUAGE  en (de, ja, ar)
//   TRACE_ROUNDS    5: loads of each page per build
//   TRACE_TASKS     1: print each long task of the last round (CPU ≥ 5 ms)
//   TRACE_PROFILE   0: 1 adds a CPU profile, printing where the CPU after the first paint went
//   TRACE_SAVE      a directory to keep each load's whole trace in
//   TRACE_LIGHTHOUSE  e.g. 4,8: also one Lighthouse run per page and build at each slowdown
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { openPostgres } from '../../apps/api/src/db/client.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import { findUserByEmail } from '../../apps/api/src/features/auth/queries.ts';
import { createLedger } from '../../apps/api/src/ledger/ledger.ts';
import { launchBrowser, newContext } from '../../e2e/support/browser.ts';
import {
  isLanguage,
  type Language,
  languageCookieName,
} from '../../packages/contracts/src/languages.ts';
import { databaseUrl, recreateDatabase } from '../shared/postgres.ts';
import { type ApiServer, logIn, startApi } from './api-server.ts';
import { sandboxUser, seedCustomers } from './seed.ts';
import { lighthouse, sessionCookie } from './web-pages.ts';

type TraceEvent = {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  id?: string;
  args?: Record<string, unknown> & { data?: Record<string, unknown>; name?: string };
};

type Page = { name: string; path: string; staff: boolean; heading: RegExp };

type Task = { startMs: number; cpuMs: number; wallMs: number; label: string };

type Load = {
  build: string;
  page: string;
  fcpMs: number;
  /** From navigation start to the app's taking the page over (main.tsx's mark). */
  takenOverMs: number;
  cpuAfterFcpMs: number;
  cpuBeforeFcpMs: number;
  tbt4: number;
  tbt8: number;
  tasks: Task[];
  profile: Map<string, number> | null;
};

const traceDatabase = 'bench_web_trace';
const customersForTheList = 30;
const categories = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'toplevel',
  'v8.execute',
  'blink.user_timing',
  'loading',
];
const profilerCategory = 'disabled-by-default-v8.cpu_profiler';
const quietAfterLoadMs = 5000;
const longTaskCpuMs = 5;
const blockingMs = 50;

function pagesOf(adminCustomerId: string): Page[] {
  return [
    { name: 'landing', path: '/', staff: false, heading: /\S/ },
    { name: 'dashboard', path: '/dashboard', staff: false, heading: /\S/ },
    { name: 'transfer', path: '/transfer', staff: false, heading: /\S/ },
    { name: 'statements', path: '/statements', staff: false, heading: /\S/ },
    { name: 'profile', path: '/profile', staff: false, heading: /\S/ },
    { name: 'admin-customers', path: '/admin', staff: true, heading: /\S/ },
    {
      name: 'admin-customer',
      path: `/admin/users/${adminCustomerId}`,
      staff: true,
      heading: /\S/,
    },
  ];
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

/** The page's navigation, its first paint, and its renderer's main thread's events in order. */
function mainThreadEvents(events: TraceEvent[], pagePath: string) {
  // The last navigation to the page (the health check visited first has its own).
  const navigationStart = events
    .filter(
      (event) =>
        event.name === 'navigationStart' &&
        new URL(String(event.args?.data?.documentLoaderURL || 'about:blank')).pathname === pagePath,
    )
    .at(-1);
  if (!navigationStart) throw new Error(`the trace has no navigation to ${pagePath}`);
  const fcp = events.find(
    (event) =>
      event.name === 'firstContentfulPaint' &&
      event.pid === navigationStart.pid &&
      event.ts > navigationStart.ts,
  );
  if (!fcp) throw new Error('the trace has no first contentful paint');
  const mainTid = events.find(
    (event) =>
      event.ph === 'M' &&
      event.name === 'thread_name' &&
      event.pid === fcp.pid &&
      event.args?.name === 'CrRendererMain',
  )?.tid;
  if (mainTid === undefined) throw new Error('the trace has no main thread');
  const onMain = events
    .filter((event) => event.pid === fcp.pid && event.tid === mainTid && event.ph === 'X')
    .sort((left, right) => left.ts - right.ts);
  return { onMain, fcpTs: fcp.ts, navigationTs: navigationStart.ts, pid: fcp.pid, tid: mainTid };
}

// Scheduler frames that wrap every task; what is inside them names it.
const unlabelled = new Set([
  'RunTask',
  'ThreadControllerImpl::RunTask',
  'ThreadControllerImpl::DoWork',
  'SequenceManager::DoIdleWork',
  'TaskGraphRunner::RunTask',
]);

function shortUrl(url: unknown): string {
  const text = String(url ?? '');
  return text ? (text.split('/').at(-1) ?? text) : '';
}

/** What a task was busy with: its largest few labelled events, with their script. */
function labelOf(task: TraceEvent, inside: TraceEvent[]): string {
  const parts = inside
    .filter((event) => !unlabelled.has(event.name) && (event.dur ?? 0) > 500)
    .sort((left, right) => (right.dur ?? 0) - (left.dur ?? 0))
    .slice(0, 3)
    .map((event) => {
      const data = event.args?.data ?? {};
      const where = shortUrl(data.url) || String(data.functionName ?? data.type ?? '');
      return `${event.name}${where ? `(${where})` : ''} ${((event.dur ?? 0) / 1000).toFixed(1)}`;
    });
  return parts.join(', ') || task.name;
}

function tasksOf(onMain: TraceEvent[], navigationTs: number): (Task & { ts: number })[] {
  const tasks: (Task & { ts: number })[] = [];
  let index = 0;
  for (const event of onMain) {
    index += 1;
    if (event.name !== 'RunTask' || event.ts < navigationTs) continue;
    const end = event.ts + (event.dur ?? 0);
    const inside: TraceEvent[] = [];
    for (let next = index; next < onMain.length; next += 1) {
      const child = onMain[next];
      if (!child || child.ts >= end) break;
      inside.push(child);
    }
    tasks.push({
      ts: event.ts,
      startMs: (event.ts - navigationTs) / 1000,
      cpuMs: (event.tdur ?? event.dur ?? 0) / 1000,
      wallMs: (event.dur ?? 0) / 1000,
      label: labelOf(event, inside),
    });
  }
  return tasks;
}

type ProfileNode = {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
};

/** CPU samples after the first paint, by the sampled function's script and name (ms). */
function profileAfter(events: TraceEvent[], pid: number, tid: number, fromTs: number) {
  const nodes = new Map<number, ProfileNode>();
  const selfMs = new Map<string, number>();
  // The main thread's profile: its chunks come from the sampling thread, under its id.
  const mainProfile = events.find(
    (event) => event.name === 'Profile' && event.pid === pid && event.tid === tid,
  );
  let sampleTs = Number(mainProfile?.args?.data?.startTime ?? 0);
  for (const event of events) {
    if (event.name !== 'ProfileChunk' || event.pid !== pid || event.id !== mainProfile?.id) {
      continue;
    }
    const data = event.args?.data as {
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
      timeDeltas?: number[];
    };
    for (const node of data.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
    const samples = data.cpuProfile?.samples ?? [];
    const deltas = data.timeDeltas ?? [];
    for (let index = 0; index < samples.length; index += 1) {
      const delta = deltas[index] ?? 0;
      sampleTs += delta;
      const next = deltas[index + 1] ?? 0;
      if (sampleTs < fromTs) continue;
      const node = nodes.get(samples[index] ?? -1);
      if (!node) continue;
      const { functionName, url, lineNumber, columnNumber } = node.callFrame;
      if (functionName === '(idle)' || functionName === '(program)') continue;
      const key = `${shortUrl(url) || '-'} ${functionName || '(anonymous)'}:${lineNumber}:${columnNumber}`;
      selfMs.set(key, (selfMs.get(key) ?? 0) + Math.max(0, next) / 1000);
    }
  }
  return selfMs;
}

async function traceLoad(
  browser: Browser,
  api: ApiServer,
  build: string,
  page: Page,
  cookies: { customer: string; staff: string },
  language: string,
  withProfile: boolean,
): Promise<Load> {
  const context = await newContext(browser, { baseUrl: api.baseUrl, viewport: 'phone' });
  const languageCookie = {
    ...sessionCookie(api.baseUrl, `${languageCookieName}=${language}`),
    httpOnly: false,
    secure: false,
  };
  const session = page.path === '/' ? [] : [page.staff ? cookies.staff : cookies.customer];
  await context.addCookies([
    languageCookie,
    ...session.map((cookie) => sessionCookie(api.baseUrl, cookie)),
  ]);
  const tab = await context.newPage();
  // A hydration mismatch (main.tsx reports it) would make the comparison meaningless.
  tab.on('console', (message) => {
    if (message.type() === 'error') console.log(`  ${page.name} ${build}: ${message.text()}`);
  });
  try {
    // The site's renderer exists before tracing starts: V8's sampler is only started in
    // processes that are running then.
    await tab.goto('/api/v1/health');
    await browser.startTracing(tab, {
      categories: withProfile ? [...categories, profilerCategory] : categories,
    });
    // Nothing is asked of the page while it is traced: Playwright's locators run scripts in
    // it (its injected script and polling were tasks of 8–12 ms of their own).
    await tab.goto(page.path, { waitUntil: 'load' });
    await tab.waitForTimeout(quietAfterLoadMs);
    const buffer = await browser.stopTracing();
    // main.tsx marks the moment the app took the page over (the page answers taps from then).
    const takenOverMs = await tab.evaluate(
      () => performance.getEntriesByName('coffer-page-taken-over')[0]?.startTime ?? null,
    );
    const heading = await tab.getByRole('heading', { level: 1 }).first().textContent();
    if (new URL(tab.url()).pathname !== page.path || !page.heading.test(heading ?? '')) {
      throw new Error(`${page.name} ended on ${tab.url()} showing "${heading}"`);
    }
    // The app took the server's page over within the trace (main.tsx takes the mark off).
    if ((await tab.locator('#root[data-server-rendered]').count()) > 0) {
      throw new Error(`${page.name}: the app had not taken the page over after the trace`);
    }
    // TRACE_SAVE: a directory that keeps each load's whole trace, for Chromium's DevTools.
    const saveDir = process.env.TRACE_SAVE;
    if (saveDir) {
      await mkdir(saveDir, { recursive: true });
      await writeFile(path.join(saveDir, `${page.name}-${build}-${Date.now()}.json`), buffer);
    }
    const { traceEvents } = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] };
    const { onMain, fcpTs, navigationTs, pid, tid } = mainThreadEvents(traceEvents, page.path);
    const tasks = tasksOf(onMain, navigationTs);
    const after = tasks.filter((task) => task.ts >= fcpTs);
    const blocking = (slowdown: number) =>
      after.reduce((sum, task) => sum + Math.max(0, slowdown * task.cpuMs - blockingMs), 0);
    return {
      build,
      page: page.name,
      fcpMs: (fcpTs - navigationTs) / 1000,
      takenOverMs: takenOverMs ?? Number.NaN,
      cpuAfterFcpMs: after.reduce((sum, task) => sum + task.cpuMs, 0),
      cpuBeforeFcpMs: tasks
        .filter((task) => task.ts < fcpTs)
        .reduce((sum, task) => sum + task.cpuMs, 0),
      tbt4: blocking(4),
      tbt8: blocking(8),
      tasks: after.filter((task) => task.cpuMs >= longTaskCpuMs),
      profile: withProfile ? profileAfter(traceEvents, pid, tid, fcpTs) : null,
    };
  } finally {
    await context.close();
  }
}

async function main() {
  const builds = process.argv.slice(2);
  if (builds.length === 0) throw new Error('name one or more web build directories');
  const language = process.env.TRACE_LANGUAGE ?? 'en';
  if (!isLanguage(language)) throw new Error(`unknown language ${language}`);
  const rounds = Number(process.env.TRACE_ROUNDS ?? 5);
  const withProfile = process.env.TRACE_PROFILE === '1';
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('run under scripts/with-postgres.mjs');
  const admin = openPostgres(serverUrl, 2);
  await recreateDatabase(admin, traceDatabase);
  const url = databaseUrl(serverUrl, traceDatabase);
  const db = openPostgres(url, 2);
  const apis: { build: string; api: ApiServer }[] = [];
  const browser = await launchBrowser();
  try {
    await migrate(db);
    await seedCustomers(db, createLedger(db), customersForTheList);
    for (const dir of builds) {
      const api = await startApi({
        databaseUrl: url,
        poolSize: 4,
        webDistDir: dir,
        cpuProfileDir: null,
      });
      apis.push({ build: path.basename(dir), api });
    }
    const first = apis[0];
    if (!first) throw new Error('no API');
    const customer = sandboxUser('customer');
    const cookies = {
      customer: await logIn(first.api.baseUrl, customer),
      staff: await logIn(first.api.baseUrl, sandboxUser('admin')),
    };
    const customerRow = await findUserByEmail(db, customer.email);
    if (!customerRow) throw new Error('Alice is not seeded');
    const wanted = (
      process.env.TRACE_PAGES ??
      'dashboard,transfer,statements,profile,admin-customers,admin-customer'
    ).split(',');
    const pages = pagesOf(customerRow.id).filter((page) => wanted.includes(page.name));
    const loads: Load[] = [];
    const loadAtStart = os.loadavg()[0] ?? 0;
    // One warm-up load per build and page: the API's first render of a page compiles its code.
    for (const page of pages) {
      for (const { build, api } of apis) {
        await traceLoad(browser, api, build, page, cookies, language, false);
      }
    }
    for (let round = 0; round < rounds; round += 1) {
      for (const page of pages) {
        const order = round % 2 === 0 ? apis : [...apis].reverse();
        for (const { build, api } of order) {
          loads.push(await traceLoad(browser, api, build, page, cookies, language, withProfile));
        }
      }
    }
    if (process.env.TRACE_LIGHTHOUSE) {
      await lighthouseAlternately(apis, pages, cookies, language, process.env.TRACE_LIGHTHOUSE);
    }
    const loadAtEnd = os.loadavg()[0] ?? 0;
    report(
      loads,
      pages,
      apis.map(({ build }) => build),
      { language, loadAtStart, loadAtEnd },
    );
    const outDir = path.join(os.tmpdir(), 'coffer-web-trace');
    await mkdir(outDir, { recursive: true });
    const outFile = path.join(outDir, `${Date.now()}-${language}.json`);
    await writeFile(
      outFile,
      JSON.stringify(
        loads.map((load) => ({
          ...load,
          profile: load.profile ? Object.fromEntries(load.profile) : null,
        })),
        null,
        1,
      ),
    );
    console.log(`loads written to ${outFile}`);
  } finally {
    await browser.close();
    for (const { api } of apis) await api.stop();
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${traceDatabase} WITH (FORCE)`);
    await admin.close();
  }
}

/**
 * TRACE_LIGHTHOUSE=4,8: Lighthouse itself (bench:api's settings, one run a page and build,
 * builds alternating) at those CPU slowdowns, for its score beside the traces' figures.
 */
async function lighthouseAlternately(
  apis: { build: string; api: ApiServer }[],
  pages: Page[],
  cookies: { customer: string; staff: string },
  language: Language,
  slowdowns: string,
) {
  for (const slowdown of slowdowns.split(',').map(Number)) {
    for (const page of pages) {
      for (const { build, api } of apis) {
        const result = await lighthouse(
          api.baseUrl,
          {
            ...page,
            cookie: page.path === '/' ? null : page.staff ? cookies.staff : cookies.customer,
            language,
          },
          { runs: 1, cpuSlowdownMultiplier: slowdown, reportsDir: null },
        );
        console.log(
          `lighthouse ${slowdown}× ${page.name.padEnd(16)} ${build.padEnd(16)} score ${result.medianScore} TBT ${result.totalBlockingTimeMs} ms BI ${Math.round(result.benchmarkIndex ?? 0)}`,
        );
      }
    }
  }
}

function report(
  loads: Load[],
  pages: Page[],
  builds: string[],
  facts: { language: string; loadAtStart: number; loadAtEnd: number },
) {
  console.log(
    `\nlanguage ${facts.language}; load average ${facts.loadAtStart.toFixed(1)} → ${facts.loadAtEnd.toFixed(1)}`,
  );
  console.log(
    'page             build             CPU>FCP   TBT4~   TBT8~ taken over   (medians; runs of TBT8~)',
  );
  for (const page of pages) {
    for (const build of builds) {
      const mine = loads.filter((load) => load.page === page.name && load.build === build);
      const cell = (values: number[]) => median(values).toFixed(0).padStart(7);
      console.log(
        `${page.name.padEnd(16)} ${build.padEnd(16)} ${cell(mine.map((l) => l.cpuAfterFcpMs))} ${cell(mine.map((l) => l.tbt4))} ${cell(mine.map((l) => l.tbt8))} ${cell(mine.map((l) => l.takenOverMs))}   ${mine.map((l) => l.tbt8.toFixed(0)).join(' ')}`,
      );
    }
  }
  if (process.env.TRACE_TASKS !== '0') {
    for (const page of pages) {
      for (const build of builds) {
        const last = loads.filter((load) => load.page === page.name && load.build === build).at(-1);
        if (!last) continue;
        console.log(
          `\n${page.name} ${build}: FCP ${last.fcpMs.toFixed(0)} ms, tasks ≥ ${longTaskCpuMs} ms CPU after it:`,
        );
        for (const task of last.tasks) {
          console.log(
            `  @${task.startMs.toFixed(0).padStart(5)} cpu ${task.cpuMs.toFixed(1).padStart(5)} wall ${task.wallMs.toFixed(1).padStart(5)}  ${task.label}`,
          );
        }
      }
    }
  }
  for (const page of pages) {
    for (const build of builds) {
      const mine = loads.filter((load) => load.page === page.name && load.build === build);
      const sums = new Map<string, number>();
      for (const load of mine) {
        for (const [key, ms] of load.profile ?? [])
          sums.set(key, (sums.get(key) ?? 0) + ms / mine.length);
      }
      if (sums.size === 0) continue;
      console.log(
        `\n${page.name} ${build}: self CPU after FCP by function (mean ms of ${mine.length})`,
      );
      const byScript = new Map<string, number>();
      for (const [key, ms] of sums) {
        const script = key.split(' ')[0] ?? '';
        byScript.set(script, (byScript.get(script) ?? 0) + ms);
      }
      for (const [script, ms] of [...byScript].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
        console.log(`  script ${script.padEnd(40)} ${ms.toFixed(1)}`);
      }
      for (const [key, ms] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
        console.log(`  ${ms.toFixed(1).padStart(6)}  ${key}`);
      }
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
