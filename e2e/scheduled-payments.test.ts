// Scheduled payments end to end against the sandbox server: Alice saves a payee (through
// the API, with the step-up code read from a real mailbox: the payees journey covers that
// form), schedules a monthly payment to it from the payee's row, sees it upcoming, pauses
// it and cancels it.
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { unexpectedProblems } from './support/console.ts';
import { callApi, demo, logIn, savePayeeByApi, toast } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 180_000;

const suite = useServerAndBrowser({ hasMailSink: true });

/** The first day of next year: always in the future, whatever day the test runs. */
function nextNewYear(): string {
  return `${new Date().getUTCFullYear() + 1}-01-01`;
}

describe('Scheduled payments', () => {
  it(
    'schedules a monthly payment to a saved payee, shows it upcoming, pauses and cancels it',
    async () => {
      const { page: landlordPage } = await suite.openPage();
      await signUpInContext(landlordPage.context(), suite.server.baseUrl, newCustomer());
      const wallet = await callApi(landlordPage, suite.server.baseUrl, 'GET', '/api/v1/wallet');
      const { accountNumber } = wallet.json as { accountNumber: string };

      const { page, problems } = await suite.openPage();
      await logIn(page, demo.alice);
      const target = { kind: 'coffer', recipient: accountNumber };
      await savePayeeByApi(
        page,
        { baseUrl: suite.server.baseUrl, mailSink: suite.mailSink, email: demo.alice.email },
        { nickname: 'Landlord', target },
      );

      await page.goto('/scheduled-payments');
      await page.getByRole('heading', { level: 1, name: 'Scheduled payments' }).waitFor();
      await page.getByText('No scheduled payments yet').waitFor();
      const violations = await seriousAxeViolations(page, '/scheduled-payments');

      // From the payee's row, which starts the form with that payee.
      await page.goto('/payees');
      await page.getByRole('link', { name: 'Schedule a payment to Landlord' }).click();
      await page.getByRole('heading', { level: 1, name: 'Scheduled payments' }).waitFor();
      const form = page.getByRole('form', { name: 'New schedule' });
      expect(await form.getByRole('combobox', { name: /^Pay to/ }).inputValue()).not.toBe('');
      await form.getByLabel('Amount').fill('12.50');
      await form.getByLabel('How often').selectOption('monthly');
      await form.getByLabel('First payment on or after').fill(nextNewYear());
      await form.getByLabel('Day of the month').selectOption('last');
      await form.getByRole('button', { name: 'Schedule payment' }).click();
      await toast(page, 'Payment scheduled');

      const list = page.getByRole('region', { name: 'Your scheduled payments' });
      const row = list.getByRole('listitem', { name: 'Scheduled payment to Landlord' });
      await row.getByText('$12.50 to Landlord').waitFor();
      await row.getByText('Every month on the last day').waitFor();
      await row.getByText(/^Upcoming: /).waitFor();
      violations.push(...(await seriousAxeViolations(page, '/scheduled-payments with one')));

      await row.getByRole('button', { name: 'Pause' }).click();
      await toast(page, 'Scheduled payment paused');
      await row.getByText('Paused: nothing will be paid until you resume it').waitFor();

      await row.getByRole('button', { name: 'Cancel' }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel scheduled payment' });
      await dialog.getByRole('button', { name: 'Cancel payment' }).click();
      await toast(page, 'Scheduled payment cancelled');
      await page.getByText('No scheduled payments yet').waitFor();

      expect(violations).toEqual([]);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
