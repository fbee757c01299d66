// Virtual cards end to end against the sandbox server: a level-2 customer asks for a card
// (the fee shown, confirmed and held), an admin issues it from the cards queue (the fee
// charged, in the customer's transactions), the customer simulates purchases through the
// signed issuing endpoints (one approved, one over the weekly limit declined with its
// reason), freezes the card (a purchase declined), unfreezes it; staff see it all on the
// customer's Cards tab. Desktop 1280 and phone 390 screenshots.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe.ts';
import { unexpectedProblems } from './support/console.ts';
import {
  callApi,
  demo,
  hasNoHorizontalScroll,
  logIn,
  snapshot,
  toast,
  userIdByEmail,
} from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 180_000;

const suite = useServerAndBrowser();

function userIdOf(staff: Page, email: string): Promise<string> {
  return userIdByEmail(staff, suite.server.baseUrl, email);
}

async function simulatePurchase(page: Page, merchant: string, amount: string): Promise<void> {
  const form = page.getByRole('region', { name: 'Simulate purchase' });
  await form.getByLabel('Merchant').fill(merchant);
  await form.getByLabel('Amount').fill(amount);
  await form.getByRole('button', { name: 'Simulate purchase' }).click();
}

function activityRow(page: Page, merchant: string) {
  return page
    .getByRole('region', { name: 'Card activity' })
    .getByRole('row')
    .filter({ hasText: merchant });
}

async function availableMinor(page: Page): Promise<string> {
  const overview = await callApi(page, suite.server.baseUrl, 'GET', '/api/v1/cards');
  return (overview.json as { terms: { availableMinor: string } }).terms.availableMinor;
}

describe('virtual cards', () => {
  it(
    'requests a card, has it issued, buys, is declined over the limit and while frozen',
    async () => {
      const { page: adminApi } = await suite.openPage();
      expect(
        (await callApi(adminApi, suite.server.baseUrl, 'POST', '/api/v1/auth/login', demo.admin))
          .status,
      ).toBe(200);
      const aliceId = await userIdOf(adminApi, demo.alice.email);
      const level = await callApi(
        adminApi,
        suite.server.baseUrl,
        'POST',
        `/api/v1/admin/users/${aliceId}/level`,
        { level: 2, reason: 'Identity checked for the cards browser test' },
      );
      expect(level.status).toBe(200);

      // The customer asks for a card: terms first, then the fee confirmed and held.
      const { page, problems } = await suite.openPage();
      await logIn(page, demo.alice);
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Cards' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Virtual cards' }).waitFor();
      await page.getByText('Creation fee: $100.00').waitFor();
      await page.getByText('Weekly spending limit: $15,000.00').waitFor();
      expect(await seriousAxeViolations(page, 'cards page')).toEqual([]);
      await snapshot(page, 'cards-terms-desktop');
      await page.getByRole('button', { name: 'Get Virtual Card' }).click();
      const confirm = page.getByRole('dialog', { name: 'Get a virtual card' });
      await confirm.getByText('The fee of $100.00 is held on your wallet now.').waitFor();
      await snapshot(page, 'cards-confirm-desktop');
      await confirm.getByRole('button', { name: 'Confirm and hold $100.00' }).click();
      await toast(page, 'Card requested. Staff will review it soon.');
      await page.getByText(/You asked for a card on/).waitFor();
      expect(await availableMinor(page)).toBe('140480');

      // An admin issues it from the cards queue; the customer's page follows live.
      const { page: admin, problems: adminProblems } = await suite.openPage();
      await logIn(admin, demo.admin);
      const sideMenu = admin.getByRole('navigation', { name: 'Main' });
      await sideMenu
        .getByRole('link', { name: /Cards queue/ })
        .getByLabel('1 waiting')
        .waitFor();
      await sideMenu.getByRole('link', { name: /Cards queue/ }).click();
      await admin.getByRole('heading', { level: 1, name: 'Cards queue' }).waitFor();
      const queueRow = admin
        .getByRole('table', { name: 'Card requests waiting for a decision' })
        .getByRole('row')
        .filter({ hasText: 'Alice Morgan' });
      expect(await seriousAxeViolations(admin, 'cards queue')).toEqual([]);
      await snapshot(admin, 'cards-queue-desktop');
      await queueRow.getByRole('button', { name: 'Issue the card of Alice Morgan' }).click();
      const issue = admin.getByRole('dialog', { name: 'Issue card' });
      await issue.getByText(/the held fee of \$100\.00 is charged/).waitFor();
      await issue.getByRole('button', { name: 'Issue card' }).click();
      await toast(admin, 'Card issued: Alice Morgan');
      await admin.getByText('Nothing waiting').waitFor();

      await page.getByText(/is ready to use until/).waitFor({ timeout: 10_000 });
      await page.getByRole('img', { name: /Virtual card ending \d{4}/ }).waitFor();
      await page.getByText('Spent this week: $0.00 of $15,000.00').waitFor();
      expect(await availableMinor(page)).toBe('140480');

      // Two purchases: one approved and settled, one over the weekly limit, declined.
      await simulatePurchase(page, 'Corner Bakery', '12.50');
      await toast(page, 'Purchase approved: $12.50 at Corner Bakery.');
      await activityRow(page, 'Corner Bakery').getByText('Completed').waitFor();
      await page.getByText('Spent this week: $12.50 of $15,000.00').waitFor();
      await simulatePurchase(page, 'Luxury Watches', '15000');
      await toast(page, 'Purchase declined: Over the weekly spending limit');
      await activityRow(page, 'Luxury Watches')
        .getByText('Over the weekly spending limit')
        .waitFor();
      expect(await availableMinor(page)).toBe('139230');
      expect(await seriousAxeViolations(page, 'cards page with a card')).toEqual([]);
      await snapshot(page, 'cards-issued-desktop');

      // Frozen: the next purchase is declined with the reason; unfrozen again.
      await page.getByRole('button', { name: 'Freeze card', exact: true }).click();
      await toast(page, 'Card frozen');
      await page.getByText(/are declined until it is unfrozen/).waitFor();
      await simulatePurchase(page, 'Night Market', '5');
      await toast(page, 'Purchase declined: The card is frozen');
      await activityRow(page, 'Night Market').getByText('The card is frozen').waitFor();
      await snapshot(page, 'cards-frozen-desktop');
      await page.getByRole('button', { name: 'Unfreeze card' }).click();
      await toast(page, 'Card unfrozen');
      await page.getByText(/is ready to use until/).waitFor();

      // The fee and the purchase are in the customer's transactions, with the merchant.
      await page.goto('/dashboard');
      const transactions = page.getByRole('table', { name: /transactions/i });
      await transactions.getByText(/Virtual card creation fee/).waitFor();
      await transactions.getByText('Corner Bakery').waitFor();
      await snapshot(page, 'cards-transactions-desktop');

      // Staff see the card and its activity on the customer's Cards tab.
      await admin.goto(`/admin/users/${aliceId}?tab=cards`);
      await admin.getByText('Activity of the card ending', { exact: false }).waitFor();
      await admin.getByRole('row').filter({ hasText: 'Luxury Watches' }).waitFor();
      expect(await seriousAxeViolations(admin, 'customer cards tab')).toEqual([]);
      await snapshot(admin, 'admin-customer-cards-desktop');

      expect(unexpectedProblems(problems)).toEqual([]);
      expect(unexpectedProblems(adminProblems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'works at phone width: the card page for the customer, the Cards tab for staff',
    async () => {
      const { page, problems } = await suite.openPage('phone');
      await logIn(page, demo.alice);
      await page.goto('/cards');
      await page.getByRole('img', { name: /Virtual card ending \d{4}/ }).waitFor();
      await page.getByText('Spent this week: $12.50 of $15,000.00').waitFor();
      await page.getByRole('list', { name: 'Card activity' }).waitFor();
      expect(await hasNoHorizontalScroll(page)).toBe(true);
      expect(await seriousAxeViolations(page, 'cards page on a phone')).toEqual([]);
      await snapshot(page, 'cards-issued-phone');

      const { page: admin, problems: adminProblems } = await suite.openPage('phone');
      await logIn(admin, demo.support);
      const aliceId = await userIdOf(admin, demo.alice.email);
      await admin.goto(`/admin/users/${aliceId}?tab=cards`);
      const cards = admin.getByRole('list', { name: 'Cards' });
      await cards
        .getByRole('button', { name: 'Freeze the card of Alice Morgan', exact: true })
        .click();
      const freeze = admin.getByRole('dialog', { name: 'Freeze card', exact: true });
      await freeze.getByLabel('Reason').fill('Reported lost by phone');
      expect(await hasNoHorizontalScroll(admin)).toBe(true);
      await snapshot(admin, 'admin-card-freeze-phone');
      await freeze.getByRole('button', { name: 'Freeze', exact: true }).click();
      await toast(admin, 'Freeze card: Alice Morgan');
      await cards.getByText('Reported lost by phone').waitFor();

      await page.getByText('Frozen by staff: Reported lost by phone').waitFor({ timeout: 10_000 });
      // Only staff lift a staff freeze: the customer is not offered Unfreeze.
      expect(await page.getByRole('button', { name: 'Unfreeze card' }).count()).toBe(0);
      expect(await hasNoHorizontalScroll(page)).toBe(true);
      await snapshot(page, 'cards-frozen-by-staff-phone');

      // The customer may still cancel it for good (a staff freeze only stops spending).
      await page.getByRole('button', { name: 'Cancel card' }).click();
      await page.getByText('Cancel this card for good?').waitFor();
      await page.getByRole('button', { name: 'Yes, cancel card' }).click();
      await toast(page, 'Card cancelled');
      await page.getByText('is closed. You can ask for a new one below.').waitFor();
      expect(await seriousAxeViolations(page, 'card cancelled')).toEqual([]);

      // A level-1 customer is told what a card needs instead of being offered one.
      const { page: bruno, problems: brunoProblems } = await suite.openPage('phone');
      await logIn(bruno, demo.bruno);
      await bruno.goto('/cards');
      await bruno.getByText('Virtual cards need account level 2.').waitFor();
      expect(await bruno.getByRole('button', { name: 'Get Virtual Card' }).count()).toBe(0);
      expect(await hasNoHorizontalScroll(bruno)).toBe(true);
      await snapshot(bruno, 'cards-level-notice-phone');
      expect(unexpectedProblems(brunoProblems)).toEqual([]);

      expect(unexpectedProblems(problems)).toEqual([]);
      expect(unexpectedProblems(adminProblems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
