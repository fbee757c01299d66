// What a browser pays to open a page: the JavaScript Chromium actually loads for it, and
// Lighthouse's performance score (mobile settings) against the API serving the built app.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { launch as launchChrome } from 'chrome-launcher';
import { type Cookie, chromium } from 'playwright-core';
import { chromiumPath, launchBrowser, newContext } from '../../e2e/support/browser.ts';
import { gzipBytesOf, type LoadedScript, recordScripts } from '../../e2e/support/page-scripts.ts';
import { type Language, languageCookieName } from '../../packages/contracts/src/languages.ts';
import { repoRoot } from './config.ts';

export type WebPage = {
  name: string;
  path: string;
  /**
   * The session cookie ("name=value") for a signed-in page, put in the browser's cookie
   * jar. Not sent as an extra request header: once the page stores a cookie of its own
   * (the time zone), Chromium sends the jar's Cookie header instead of the extra one, and
   * every later request of the page went without the session (signed out mid-page).
   */
  cookie: string | null;
  /** The page's h1 once it has rendered, e.g. the dashboard's greeting. */
  heading: RegExp;
  /** The language the page is opened in, as a person who chose it has it in their cookie. */
  language: Language;
};

export type PageScripts = { page: string; scripts: LoadedScript[]; gzipBytes: number };

export type LighthouseResult = {
  page: string;
  /** Lighthouse's simulated CPU slowdown: 4 is its default (mobile) setting. */
  cpuSlowdownMultiplier: number;
  /** 0–100 per run, in run order; the median is the figure compared with the target. */
  scores: number[];
  medianScore: number;
  /** The run with the median score: its metrics, as Lighthouse displays them. */
  metrics: Record<string, string>;
  /** The median run's total blocking time and largest contentful paint, in milliseconds. */
  totalBlockingTimeMs: number | null;
  largestContentfulPaintMs: number | null;
  benchmarkIndex: number | null;
};

/** Lighthouse's own CPU slowdown for its mobile settings. */
export const lighthouseDefaultCpuSlowdown = 4;

const processOutputTailChars = 4000;
const pageReadyTimeoutMs = 30_000;
const lighthouseMetricIds = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
];
// e2e/support/browser.ts's flags, with the new headless mode Lighthouse expects.
const lighthouseChromeFlags = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-processOutputTailChars);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
}

/** `vite build` of apps/web into a directory of its own (others may be building too). */
export async function buildWebApp(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'coffer-bench-web-'));
  await run(
    path.join(repoRoot, 'node_modules/.bin/vite'),
    ['build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: path.join(repoRoot, 'apps/web') },
  );
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The session cookie as the API sets it (`__Host-`: secure, whole site), for `baseUrl`. */
export function sessionCookie(baseUrl: string, cookie: string): Cookie {
  const separatorAt = cookie.indexOf('=');
  return {
    name: cookie.slice(0, separatorAt),
    value: cookie.slice(separatorAt + 1),
    domain: new URL(baseUrl).hostname,
    path: '/',
    expires: -1,
    httpOnly: true,
    // Chromium keeps and sends secure cookies to http://127.0.0.1, a trustworthy origin.
    secure: true,
    sameSite: 'Lax',
  };
}

/** The cookies a visitor of `webPage` holds: their language, and the session when signed in. */
function cookiesOf(baseUrl: string, webPage: Pick<WebPage, 'cookie' | 'language'>): Cookie[] {
  const language: Cookie = {
    ...sessionCookie(baseUrl, `${languageCookieName}=${webPage.language}`),
    httpOnly: false,
    secure: false,
  };
  return webPage.cookie ? [language, sessionCookie(baseUrl, webPage.cookie)] : [language];
}

/** Opens each page in a fresh phone-sized context and records every script it loads. */
export async function measurePageScripts(baseUrl: string, pages: WebPage[]) {
  const browser = await launchBrowser();
  try {
    const measured: PageScripts[] = [];
    for (const page of pages) measured.push(await scriptsOf(browser, baseUrl, page));
    return measured;
  } finally {
    await browser.close();
  }
}

async function scriptsOf(
  browser: Awaited<ReturnType<typeof launchBrowser>>,
  baseUrl: string,
  webPage: WebPage,
): Promise<PageScripts> {
  const context = await newContext(browser, { baseUrl, viewport: 'phone' });
  await context.addCookies(cookiesOf(baseUrl, webPage));
  const page = await context.newPage();
  const scripts = recordScripts(page);
  try {
    await page.goto(webPage.path, { waitUntil: 'load' });
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor({ timeout: pageReadyTimeoutMs });
    const headingText = (await heading.textContent()) ?? '';
    if (!webPage.heading.test(headingText) || new URL(page.url()).pathname !== webPage.path) {
      throw new Error(`${webPage.name}: landed on ${page.url()} showing "${headingText}"`);
    }
    const loaded = await scripts.untilQuiet();
    // A page that sends its visitor elsewhere meanwhile (to sign in) counts that page's code.
    if (new URL(page.url()).pathname !== webPage.path) {
      throw new Error(`${webPage.name}: went on to ${page.url()}`);
    }
    return { page: webPage.name, scripts: loaded, gzipBytes: gzipBytesOf(loaded) };
  } finally {
    await context.close();
  }
}

type LighthouseReport = {
  finalDisplayedUrl?: string;
  categories: { performance: { score: number | null } };
  audits: Record<string, { displayValue?: string; numericValue?: number }>;
  environment?: { benchmarkIndex?: number };
  runtimeError?: { code: string; message: string };
};

/**
 * Chromium as Lighthouse's CLI launches it (chrome-launcher, its default flags and a fresh
 * profile), for Lighthouse to drive with `--port`: with the session cookie in its jar
 * first, as a signed-in person's browser has it. Lighthouse clears caches and service
 * workers before its run, never cookies.
 */
async function chromeForLighthouse(
  baseUrl: string,
  webPage: Pick<WebPage, 'cookie' | 'language'>,
): Promise<{ port: number; stop: () => void }> {
  const chrome = await launchChrome({
    chromePath: chromiumPath,
    chromeFlags: lighthouseChromeFlags,
  });
  const stop = () => chrome.kill();
  try {
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const [defaultContext] = browser.contexts();
    if (!defaultContext) throw new Error('Chromium has no default context');
    await defaultContext.addCookies(cookiesOf(baseUrl, webPage));
    await browser.close();
    return { port: chrome.port, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

async function lighthouseOnce(
  url: string,
  webPage: WebPage,
  settings: { cpuSlowdownMultiplier: number; keptReportPath: string | null },
): Promise<LighthouseReport> {
  const outputDir = await mkdtemp(path.join(os.tmpdir(), 'coffer-bench-lighthouse-'));
  const reportPath = path.join(outputDir, 'report.json');
  const chrome = await chromeForLighthouse(new URL(url).origin, webPage);
  try {
    await run(
      path.join(repoRoot, 'node_modules/.bin/lighthouse'),
      [
        url,
        '--only-categories=performance',
        '--output=json',
        `--output-path=${reportPath}`,
        '--quiet',
        `--port=${chrome.port}`,
        `--throttling.cpuSlowdownMultiplier=${settings.cpuSlowdownMultiplier}`,
      ],
      { cwd: repoRoot },
    );
    if (settings.keptReportPath) await copyFile(reportPath, settings.keptReportPath);
    const report = JSON.parse(await readFile(reportPath, 'utf8')) as LighthouseReport;
    const finalPath = report.finalDisplayedUrl ? new URL(report.finalDisplayedUrl).pathname : null;
    if (finalPath !== new URL(url).pathname) {
      throw new Error(`Lighthouse on ${url} ended on ${report.finalDisplayedUrl}`);
    }
    if (report.runtimeError) {
      throw new Error(
        `Lighthouse on ${url}: ${report.runtimeError.code} ${report.runtimeError.message}`,
      );
    }
    return report;
  } finally {
    chrome.stop();
    await rm(outputDir, { recursive: true, force: true });
  }
}

// Lighthouse sometimes fails to record a trace (NO_NAVSTART, NO_FCP) and asks to be run
// again; that run is repeated, and only a page that fails every time fails the benchmark.
const lighthouseAttemptsMax = 3;
const lighthouseRetryHint = 'Please run Lighthouse again';

async function lighthouseRetried(
  url: string,
  webPage: WebPage,
  settings: Parameters<typeof lighthouseOnce>[2],
): Promise<LighthouseReport> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await lighthouseOnce(url, webPage, settings);
    } catch (error) {
      const isTransient = error instanceof Error && error.message.includes(lighthouseRetryHint);
      if (!isTransient || attempt >= lighthouseAttemptsMax) throw error;
      console.log(`  Lighthouse could not record ${url} (attempt ${attempt}); running it again`);
    }
  }
}

/**
 * Lighthouse's default (mobile) settings but for the CPU slowdown, performance only, `runs`
 * times in a row; with `reportsDir`, each run's whole report is kept there as
 * `<page>-cpu<slowdown>-<run>.json`.
 */
export async function lighthouse(
  baseUrl: string,
  page: WebPage,
  options: { runs: number; cpuSlowdownMultiplier: number; reportsDir: string | null },
): Promise<LighthouseResult> {
  const { cpuSlowdownMultiplier, reportsDir } = options;
  if (reportsDir) await mkdir(reportsDir, { recursive: true });
  const reports: LighthouseReport[] = [];
  for (let run = 1; run <= options.runs; run += 1) {
    const keptReportPath = reportsDir
      ? path.join(reportsDir, `${page.name}-cpu${cpuSlowdownMultiplier}-${run}.json`)
      : null;
    reports.push(
      await lighthouseRetried(`${baseUrl}${page.path}`, page, {
        cpuSlowdownMultiplier,
        keptReportPath,
      }),
    );
  }
  const scoreOf = (report: LighthouseReport) =>
    Math.round(100 * (report.categories.performance.score ?? 0));
  const byScore = [...reports].sort((left, right) => scoreOf(left) - scoreOf(right));
  const median = byScore[Math.floor((byScore.length - 1) / 2)];
  if (!median) throw new Error('Lighthouse made no report');
  const millisecondsOf = (id: string) => {
    const value = median.audits[id]?.numericValue;
    return value === undefined ? null : Math.round(value);
  };
  return {
    page: page.name,
    cpuSlowdownMultiplier,
    scores: reports.map(scoreOf),
    medianScore: scoreOf(median),
    metrics: Object.fromEntries(
      lighthouseMetricIds.map((id) => [id, median.audits[id]?.displayValue ?? '—']),
    ),
    totalBlockingTimeMs: millisecondsOf('total-blocking-time'),
    largestContentfulPaintMs: millisecondsOf('largest-contentful-paint'),
    benchmarkIndex: median.environment?.benchmarkIndex ?? null,
  };
}
