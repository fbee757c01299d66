// How soon the dashboard answers a tap, and how fast Quick Pay answers each step: Chromium
// (playwright-core, phone context, the customer's session) with its CPU slowed down by CDP's
// Emulation.setCPUThrottlingRate, the page's Event Timing entries read back afterwards.
import type { Locator, Page } from 'playwright-core';
import { launchBrowser, newContext, watchConsole } from '../../e2e/support/browser.ts';
import { sleep } from '../shared/measure.ts';
import { sessionCookie, type WebPage } from './web-pages.ts';

export type QuickPayTimings = {
  /** From navigation start until a click first opened the Quick Pay dialog. */
  interactiveMs: number;
  /** Clicks on the button before that one, which the page did not answer. */
  unansweredClicks: number;
  firstContentfulPaintMs: number | null;
  /**
   * Interaction to next paint (the longest Event Timing entry of the click), in ms; null
   * when every entry was under the observer's 16 ms threshold.
   */
  inpMs: {
    firstOpen: number | null;
    open: number | null;
    continue: number | null;
    send: number | null;
  };
  /** From the click that opened the dialog first until it showed (its code loads on demand). */
  firstOpenToDialogMs: number;
  /** From the Send click until the "Sent" toast, as the driving process sees it. */
  sendToToastMs: number;
  consoleProblems: string[];
};

type Recorder = {
  events: { startTime: number; duration: number }[];
  pointerDownsAt: number[];
  dialogShownAt: number | null;
  firstContentfulPaintAt: number | null;
};

const dialogName = 'Quick Pay';
// Runs in the page before its own scripts. A string, not a function: tsx's transform would
// add helpers the page does not have.
const recorderScript = `(() => {
  const recorder = { events: [], pointerDownsAt: [], dialogShownAt: null, firstContentfulPaintAt: null };
  window.benchRecorder = recorder;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.interactionId > 0) recorder.events.push({ startTime: entry.startTime, duration: entry.duration });
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  new PerformanceObserver((list) => {
    const paint = list.getEntriesByName('first-contentful-paint')[0];
    if (paint) recorder.firstContentfulPaintAt = paint.startTime;
  }).observe({ type: 'paint', buffered: true });
  addEventListener('pointerdown', (event) => recorder.pointerDownsAt.push(event.timeStamp), true);
  new MutationObserver(() => {
    if (recorder.dialogShownAt !== null) return;
    const dialog = document.querySelector('[role="dialog"]');
    if (dialog && dialog.textContent.includes(${JSON.stringify(dialogName)})) {
      recorder.dialogShownAt = performance.now();
    }
  }).observe(document, { childList: true, subtree: true });
})();`;

// After each click, 250 ms for the dialog to show before the next: the measure's resolution.
const clickIntervalMs = 250;
const clickTimeoutMs = 1000;
const interactiveTimeoutMs = 60_000;
// Event Timing entries are delivered after the next paint: time for them to arrive.
const entriesSettleMs = 500;
const stepTimeoutMs = 30_000;

async function record(page: Page): Promise<Recorder> {
  return (await page.evaluate('window.benchRecorder')) as Recorder;
}

async function resetDialogShown(page: Page) {
  await page.evaluate('window.benchRecorder.dialogShownAt = null');
}

/**
 * The latency of the interaction that began with the pointerdown at `fromMs`: its entries
 * start before the next pointerdown, or before `untilMs` (the dialog it opened).
 */
function latencyFrom(recorder: Recorder, fromMs: number, untilMs?: number): number | null {
  const endMs = untilMs ?? recorder.pointerDownsAt.find((at) => at > fromMs) ?? Infinity;
  const durations = recorder.events
    .filter((entry) => entry.startTime >= fromMs && entry.startTime < endMs)
    .map((entry) => entry.duration);
  return durations.length > 0 ? Math.max(...durations) : null;
}

/** Clicks `target` and returns the page's time of that click's pointerdown. */
async function clickAt(page: Page, target: Locator): Promise<number> {
  const before = (await record(page)).pointerDownsAt.length;
  await target.click({ timeout: stepTimeoutMs });
  const downsAt = (await record(page)).pointerDownsAt;
  const at = downsAt[before];
  if (at === undefined) throw new Error('the click reached the page without a pointerdown');
  return at;
}

/**
 * Clicks Quick Pay from the moment the page is committed until a click opens the dialog.
 * A click that times out (the dialog's overlay covers the button) sends nothing.
 */
async function clickUntilDialog(page: Page, button: Locator, dialog: Locator) {
  const deadline = performance.now() + interactiveTimeoutMs;
  for (;;) {
    const recorder = await record(page);
    if (recorder.dialogShownAt !== null) return recorder;
    if (performance.now() > deadline) throw new Error('no click opened the Quick Pay dialog');
    await button.click({ timeout: clickTimeoutMs }).catch((error: unknown) => {
      if (!(error instanceof Error && error.name === 'TimeoutError')) throw error;
    });
    await dialog.waitFor({ timeout: clickIntervalMs }).catch(() => undefined);
  }
}

/**
 * One run: opens the dashboard, clicks Quick Pay until the dialog opens, pays `amount` to
 * `recipientEmail` (real money, through the API), then opens the dialog once more.
 */
async function quickPayOnce(
  baseUrl: string,
  dashboard: WebPage,
  payment: { recipientEmail: string; amount: string; cpuSlowdown: number },
): Promise<QuickPayTimings> {
  const browser = await launchBrowser();
  try {
    const context = await newContext(browser, { baseUrl, viewport: 'phone' });
    if (dashboard.cookie) await context.addCookies([sessionCookie(baseUrl, dashboard.cookie)]);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.addInitScript({ content: recorderScript });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: payment.cpuSlowdown });

    const button = page.getByRole('button', { name: dialogName, exact: true });
    const dialog = page.getByRole('dialog', { name: dialogName });
    await page.goto(dashboard.path, { waitUntil: 'commit' });
    await page.waitForFunction('window.benchRecorder !== undefined');
    const opened = await clickUntilDialog(page, button, dialog);
    const shownAt = opened.dialogShownAt ?? 0;
    const downsBefore = opened.pointerDownsAt.filter((at) => at < shownAt);
    const firstOpenAt = downsBefore.at(-1) ?? 0;

    await dialog.getByLabel('Recipient').fill(payment.recipientEmail);
    await dialog.getByLabel('Amount').focus();
    await dialog.getByText(/^Sending to /).waitFor({ timeout: stepTimeoutMs });
    await dialog.getByLabel('Amount').fill(payment.amount);
    const continueAt = await clickAt(page, dialog.getByRole('button', { name: 'Continue' }));
    await dialog.getByRole('heading', { name: 'Confirm payment' }).waitFor();
    const sendStartedMs = performance.now();
    const sendAt = await clickAt(
      page,
      dialog.getByRole('button', { name: `Send $${payment.amount}` }),
    );
    await page
      .getByRole('alert')
      .filter({ hasText: `Sent $${payment.amount}` })
      .first()
      .waitFor({ timeout: stepTimeoutMs });
    const sendToToastMs = performance.now() - sendStartedMs;
    await dialog.waitFor({ state: 'hidden' });

    await resetDialogShown(page);
    const openAt = await clickAt(page, button);
    await dialog.waitFor();
    await sleep(entriesSettleMs);
    const recorder = await record(page);
    await context.close();
    return {
      interactiveMs: Math.round(shownAt),
      unansweredClicks: downsBefore.length - 1,
      firstContentfulPaintMs: recorder.firstContentfulPaintAt,
      inpMs: {
        firstOpen: latencyFrom(recorder, firstOpenAt, shownAt),
        open: latencyFrom(recorder, openAt, recorder.dialogShownAt ?? undefined),
        continue: latencyFrom(recorder, continueAt),
        send: latencyFrom(recorder, sendAt),
      },
      firstOpenToDialogMs: Math.round(shownAt - firstOpenAt),
      sendToToastMs: Math.round(sendToToastMs),
      consoleProblems: problems.messages,
    };
  } finally {
    await browser.close();
  }
}

/** `runs` runs, one after the other, each in a fresh browser and each paying once. */
export async function measureQuickPay(
  baseUrl: string,
  dashboard: WebPage,
  options: { runs: number; recipientEmail: string; amount: string; cpuSlowdown: number },
): Promise<QuickPayTimings[]> {
  const runs: QuickPayTimings[] = [];
  for (let run = 1; run <= options.runs; run += 1) {
    runs.push(await quickPayOnce(baseUrl, dashboard, options));
  }
  return runs;
}
