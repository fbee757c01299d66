// Saved payees end to end against the sandbox server: Alice adds another customer as a
// payee with the step-up code read from a real mailbox, gets the security email, and pays
// the payee from Quick Pay by choosing it above the form.
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { unexpectedProblems } from './support/console.ts';
import { callApi, demo, logIn, toast } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 180_000;

const suite = useServerAndBrowser({ hasMailSink: true });

/** What the server does: the first letter of each word of the name, then ***. */
function masked(username: string): string {
  return username
    .split(/\s+/)
    .map((word) => `${word[0]}***`)
    .join(' ');
}

describe('Payees', () => {
  it(
    'adds a payee with the emailed code and pays it from Quick Pay',
    async () => {
      const { page: recipientPage } = await suite.openPage();
      const recipient = await signUpInContext(
        recipientPage.context(),
        suite.server.baseUrl,
        newCustomer(),
      );
      const wallet = await callApi(recipientPage, suite.server.baseUrl, 'GET', '/api/v1/wallet');
      const { accountNumber } = wallet.json as { accountNumber: string };

      const { page, problems } = await suite.openPage();
      await logIn(page, demo.alice);
      await page.goto('/payees');
      await page.getByRole('heading', { level: 1, name: 'Payees' }).waitFor();
      await page.getByText('No saved payees yet').waitFor();
      const violations = await seriousAxeViolations(page, '/payees');

      await page.getByLabel('Recipient').fill(accountNumber);
      await page.getByLabel('Nickname').fill('  Flatmate  ');
      const askedAt = new Date();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText(/We emailed a 6-digit code to a\*\*\*@coffer\.test/).waitFor();
      const codeMail = await suite.mailSink.waitForMail({
        to: demo.alice.email,
        subject: 'verification code',
        after: askedAt,
      });
      expect(codeMail.text).toContain(`to add a new payee (Coffer customer ${accountNumber})`);
      const code = /\b(\d{6})\b/.exec(codeMail.text)?.[1] ?? '';
      await page.getByLabel('Verification code').fill(code);
      await page.getByRole('button', { name: 'Save payee' }).click();
      await toast(page, 'Payee "Flatmate" saved');
      const list = page.getByRole('region', { name: 'Your payees' });
      await list.getByText('Flatmate', { exact: true }).waitFor();
      await list.getByText(`Coffer customer ${accountNumber}`).waitFor();
      const notice = await suite.mailSink.waitForMail({
        to: demo.alice.email,
        subject: 'A new payee was added',
        after: askedAt,
      });
      expect(notice.text).toContain('If it was not you');
      violations.push(...(await seriousAxeViolations(page, '/payees with a payee')));

      await page.getByRole('link', { name: 'Transfer' }).first().click();
      await page.getByRole('heading', { level: 1, name: 'Transfer and withdraw' }).waitFor();
      await page
        .getByLabel('Saved payees')
        .selectOption({ label: `Flatmate — Coffer customer ${accountNumber}` });
      expect(await page.getByLabel('Recipient').inputValue()).toBe(accountNumber);
      await page.getByText(`Sending to ${masked(recipient.username)} (USD)`).waitFor();
      await page.getByLabel('Amount').fill('5');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Confirm payment' }).waitFor();
      await page.getByRole('button', { name: 'Send $5.00' }).click();
      await toast(page, `Sent $5.00 to ${masked(recipient.username)}.`);

      // Renamed, then deleted after a confirmation.
      await page.goto('/payees');
      await page.getByRole('button', { name: 'Rename Flatmate' }).click();
      const renameDialog = page.getByRole('dialog', { name: 'Rename payee' });
      await renameDialog.getByLabel('Nickname').fill('Sam');
      await renameDialog.getByRole('button', { name: 'Save' }).click();
      await toast(page, 'Payee renamed to "Sam"');
      await page.getByRole('button', { name: 'Delete Sam' }).click();
      const deleteDialog = page.getByRole('dialog', { name: 'Delete payee' });
      await deleteDialog.getByRole('button', { name: 'Delete payee' }).click();
      await toast(page, 'Payee "Sam" deleted');
      await page.getByText('No saved payees yet').waitFor();

      expect(violations).toEqual([]);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
