// Bulk payments end to end against the sandbox server: Alice uploads a 50-line file with
// two bad lines, reads the problems by line, fixes them, confirms the total with the code
// from a real mailbox, watches the progress bar fill and downloads the result.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { unexpectedProblems } from './support/console.ts';
import { callApi, demo, logIn } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 180_000;

const suite = useServerAndBrowser({ hasMailSink: true });

/** 50 payments of 0.50 to 0.99 to `recipient`, each with its own reference. */
function paymentLines(recipient: string): string[] {
  return Array.from(
    { length: 50 },
    (_, index) => `${recipient},0.${String(50 + index)},Invoice ${index + 1}`,
  );
}

async function chooseFile(page: Page, lines: string[]): Promise<void> {
  await page.locator('input[type="file"]').setInputFiles({
    name: 'payments.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(['recipient,amount,reference', ...lines].join('\r\n')),
  });
}

describe('Bulk payments', () => {
  it(
    'lists two bad lines, then pays the fixed file with a progress bar and a result file',
    async () => {
      const { page: recipientPage } = await suite.openPage();
      await signUpInContext(recipientPage.context(), suite.server.baseUrl, newCustomer());
      const wallet = await callApi(recipientPage, suite.server.baseUrl, 'GET', '/api/v1/wallet');
      const { accountNumber } = wallet.json as { accountNumber: string };

      const { page, problems } = await suite.openPage();
      await logIn(page, demo.alice);
      await page.goto('/bulk-payments');
      await page.getByRole('heading', { level: 1, name: 'Bulk payments' }).waitFor();
      const violations = await seriousAxeViolations(page, '/bulk-payments');

      const good = paymentLines(accountNumber);
      const bad = [...good];
      bad[9] = `${accountNumber},1.005,Invoice 10`;
      bad[29] = `${accountNumber},0.79,=HYPERLINK(1)`;
      await chooseFile(page, bad);
      const listed = page.getByRole('list', { name: 'Problems by line' });
      await listed.waitFor();
      expect(await listed.getByRole('listitem').allInnerTexts()).toEqual([
        'Line 11: amount: the amount "1.005" is refused: USD amounts have at most 2 decimal places',
        'Line 31: reference: "=HYPERLINK(1)" starts like a spreadsheet formula (= + - @)',
      ]);
      violations.push(...(await seriousAxeViolations(page, '/bulk-payments with problems')));

      await chooseFile(page, good);
      const file = page.getByRole('region', { name: 'Check and confirm' });
      await file.getByText('Payments').waitFor();
      await file.getByText('$37.25').waitFor();
      await file.getByRole('button', { name: 'Confirm and pay' }).click();
      const askedAt = new Date();
      await page.getByText(/We emailed a 6-digit code to a\*\*\*@coffer\.test/).waitFor();
      const codeMail = await suite.mailSink.waitForMail({
        to: demo.alice.email,
        subject: 'verification code',
        after: askedAt,
      });
      expect(codeMail.text).toMatch(/to pay USD\s37\.25 in a file of 50 payments/);
      const code = /\b(\d{6})\b/.exec(codeMail.text)?.[1] ?? '';
      await page.getByLabel('Verification code').fill(code);
      await page.getByRole('button', { name: 'Pay $37.25' }).click();

      await page.getByRole('progressbar', { name: 'Payment progress' }).waitFor();
      await page.getByText('Done: 50 paid of 50').waitFor();
      expect(
        await page
          .getByRole('progressbar', { name: 'Payment progress' })
          .getAttribute('aria-valuenow'),
      ).toBe('100');
      violations.push(...(await seriousAxeViolations(page, '/bulk-payments paid')));

      const [saved] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download the result (CSV)' }).click(),
      ]);
      const result = (await readFile(await saved.path(), 'utf8')).replace('\uFEFF', '');
      const rows = result.trim().split('\r\n');
      expect(rows[0]).toBe('line,recipient,amount,currency,reference,status,reason');
      expect(rows).toHaveLength(51);
      expect(rows[1]).toBe(`2,${accountNumber},0.50,USD,Invoice 1,paid,`);
      expect(rows.slice(1).every((row) => row.endsWith(',paid,'))).toBe(true);

      // Support sees the file, read-only, on Alice's page in the back office.
      const me = await callApi(page, suite.server.baseUrl, 'GET', '/api/v1/auth/me');
      const aliceId = (me.json as { id: string }).id;
      const { page: staff, problems: staffProblems } = await suite.openPage();
      await logIn(staff, demo.support);
      await staff.goto(`/admin/users/${aliceId}?tab=bulk-payments`);
      const files = staff.getByRole('table', { name: 'Bulk payment files' });
      await files.getByRole('row').filter({ hasText: '$37.25' }).getByText('Done').waitFor();
      expect(await files.getByRole('button', { name: 'Open' }).count()).toBe(0);
      expect(unexpectedProblems(staffProblems)).toEqual([]);

      expect(violations).toEqual([]);
      // The first file is refused on purpose: its upload answers 400.
      expect(
        unexpectedProblems(problems, [{ path: '/api/v1/bulk-payments', status: 400 }]),
      ).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
