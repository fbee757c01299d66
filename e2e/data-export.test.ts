// "Export my data" end to end (issue #34 item 3, ADR 049): a customer asks on the profile,
// the job builds the zip, the page and an email say it is ready, and the download, after the
// password again, is a zip whose files a zip library reads.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { readZip } from '../apps/api/test/zip.ts';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { newContext, watchConsole } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import { hasNoHorizontalScroll, snapshot, waitForAppTakeover } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 120_000;
/** The build job looks every 5 s; the runner ticks every half second here. */
const exportReadyTimeoutMs = 30_000;

const suite = useServerAndBrowser({ hasMailSink: true, env: { COFFER_JOB_TICK_MS: '500' } });

describe('export my data', () => {
  it(
    'asks for an export on the profile, waits for it, and downloads the zip after the password (phone)',
    async () => {
      const context = suite.closeAfterTest(
        await newContext(suite.browser, { baseUrl: suite.server.baseUrl, viewport: 'phone' }),
      );
      const customer = await signUpInContext(context, suite.server.baseUrl, newCustomer());
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.goto('/profile');
      await waitForAppTakeover(page);

      await page.getByRole('link', { name: 'Export my data' }).click();
      await page.getByRole('heading', { level: 1, name: 'Your data' }).waitFor();
      const card = page.getByRole('region', { name: 'Export my data' });
      const askedAt = new Date();
      await card.getByRole('button', { name: 'Export my data' }).click();
      await card.getByText('We are preparing your export').waitFor();
      expect(await seriousAxeViolations(page, 'export building')).toEqual([]);

      await card.getByText('Your export is ready').waitFor({ timeout: exportReadyTimeoutMs });
      const mail = await suite.mailSink.waitForMail({
        to: customer.email,
        subject: /data export .* is ready/,
        after: askedAt,
      });
      expect(mail.text).toContain('/profile/export');
      expect(await hasNoHorizontalScroll(page)).toBe(true);
      expect(await seriousAxeViolations(page, 'export ready')).toEqual([]);
      await snapshot(page, 'data-export-ready-phone');

      await card.getByLabel('Your password').fill(customer.password);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        card.getByRole('button', { name: 'Download my data' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^coffer-data-\d{4}-\d{2}-\d{2}\.zip$/);
      const zipPath = await download.path();
      const files = await readZip(await readFile(zipPath));
      expect([...files.keys()]).toContain('README.txt');
      const profile = JSON.parse(files.get('profile.json')?.toString('utf8') ?? '{}');
      expect(profile.email).toBe(customer.email);

      expect(unexpectedProblems(problems, [])).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
