// Every script a page loads until the network is quiet, against its budget in
// apps/web/budgets-until-idle.json (docs/decisions/056). The build's budgets (budgets.json)
// weigh what the manifest says a page imports statically; a browser also loads what the
// page asks for while it starts (its words, code drawn once shown), which only a browser
// sees. Measured on a phone-sized page, gzipped at level 9, as bench:api counts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { signUpInContext } from './support/accounts.ts';
import { newContext } from './support/browser.ts';
import { gzipBytesOf, recordScripts } from './support/page-scripts.ts';
import { repoRoot } from './support/server.ts';
import { useServerAndBrowser } from './support/suite.ts';

const testTimeoutMs = 120_000;
const bytesPerKb = 1000;

type Budgets = { visitor: Record<string, number>; customer: Record<string, number> };
const budgets = JSON.parse(
  readFileSync(path.join(repoRoot, 'apps/web/budgets-until-idle.json'), 'utf8'),
) as Budgets;

const suite = useServerAndBrowser();

async function weigh(pagePath: string, audience: keyof Budgets) {
  const context = suite.closeAfterTest(
    await newContext(suite.browser, { baseUrl: suite.server.baseUrl, viewport: 'phone' }),
  );
  if (audience === 'customer') await signUpInContext(context, suite.server.baseUrl);
  const page = await context.newPage();
  const scripts = recordScripts(page);
  await page.goto(pagePath, { waitUntil: 'load' });
  await page.getByRole('heading', { level: 1 }).waitFor();
  const loaded = await scripts.untilQuiet();
  // A page that sent its visitor elsewhere would be weighing another page's code.
  expect(new URL(page.url()).pathname).toBe(pagePath);
  return { files: loaded.length, kb: gzipBytesOf(loaded) / bytesPerKb };
}

describe('the scripts a page loads until the network is quiet', () => {
  for (const audience of ['visitor', 'customer'] as const) {
    for (const [pagePath, budgetKb] of Object.entries(budgets[audience])) {
      it(
        `${pagePath} (${audience}) stays within ${budgetKb} KB gzipped`,
        async () => {
          const weight = await weigh(pagePath, audience);
          console.log(`${pagePath}: ${weight.kb.toFixed(1)} KB in ${weight.files} files`);
          expect(weight.kb).toBeLessThanOrEqual(budgetKb);
        },
        testTimeoutMs,
      );
    }
  }
});
