// Every script a page loads until the network is quiet, as Chromium receives it: what the
// page-weight check (e2e/page-weights.test.ts, apps/web/budgets-until-idle.json) and the
// benchmark (bench/api/web-pages.ts) count. The build's own budget (budgets.json) sees only
// what the manifest says a page imports statically; a browser also sees what the page
// loads on demand while it starts (its words, a component drawn once shown).
import { constants, gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';

export type LoadedScript = {
  url: string;
  bytes: number;
  /** The body gzipped at level 9, whatever encoding it travelled in. */
  gzipBytes: number;
  /** What went over the wire (Brotli or gzip when the API served a compressed copy). */
  transferBytes: number;
};

/** No script for this long after the page is up: it has what it needs. */
export const scriptQuietMs = 1500;
const pollMs = 100;

/** Starts recording every script `page` receives; call before it navigates. */
export function recordScripts(page: Page) {
  const pending: Promise<LoadedScript>[] = [];
  let lastScriptAtMs = performance.now();
  page.on('response', (response) => {
    if (!(response.headers()['content-type'] ?? '').includes('javascript')) return;
    lastScriptAtMs = performance.now();
    const script = Promise.all([response.body(), response.request().sizes()]).then(
      ([body, sizes]) => ({
        url: new URL(response.url()).pathname,
        bytes: body.length,
        gzipBytes: gzipSync(body, { level: constants.Z_BEST_COMPRESSION }).length,
        transferBytes: sizes.responseBodySize,
      }),
    );
    // A test that fails before it asks closes the page, and a body still being read then
    // rejects: handled here, so the run reports the test's own failure rather than an
    // unhandled rejection. `received()` still sees it.
    script.catch(() => undefined);
    pending.push(script);
  });
  return {
    /** The scripts received so far. */
    received: () => Promise.all(pending),
    /** Waits until no script has arrived for `scriptQuietMs`, then gives all of them. */
    async untilQuiet(): Promise<LoadedScript[]> {
      while (performance.now() - lastScriptAtMs < scriptQuietMs) {
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
      return Promise.all(pending);
    },
  };
}

export function gzipBytesOf(scripts: readonly LoadedScript[]): number {
  return scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
}
