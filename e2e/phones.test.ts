// What a customer meets on a 390 px phone (issue #31 item 12): a three-decimal balance
// stays on one line, the floating Help button leaves Quick Pay's buttons free (under a
// dialog's overlay, and below the page's end), the bell shows a two-digit count whole, and
// toasts appear at the top, away from a page's own buttons.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { unexpectedProblems } from './support/console.ts';
import { hasNoHorizontalScroll, snapshot } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 180_000;
const phone = { width: 390, height: 844 };

const suite = useServerAndBrowser();

/** Adds sandbox test money through the API, as the dashboard's button does. */
async function addTestMoney(page: Page, amount: string): Promise<void> {
  const response = await page.request.post('/api/v1/wallet/test-money', {
    data: { amount },
    headers: { origin: suite.server.baseUrl, 'idempotency-key': crypto.randomUUID() },
  });
  expect(response.status(), await response.text()).toBe(201);
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not on screen');
  return found;
}

/** A phone-sized page signed in as a new customer in Kuwait (three-decimal dinars). */
async function kuwaitiOnPhone() {
  const opened = await suite.openPage('phone');
  await opened.page.setViewportSize(phone);
  await signUpInContext(opened.context, suite.server.baseUrl, newCustomer({ country: 'KW' }));
  return opened;
}

describe('on a 390 px phone', () => {
  it(
    'keeps a KWD balance on one line, and the bell’s count of 10 whole',
    async () => {
      const { page, problems } = await kuwaitiOnPhone();
      await addTestMoney(page, '1732.530');
      // Nine more, so the bell counts ten: every money in rings it.
      for (let count = 0; count < 9; count += 1) await addTestMoney(page, '0.001');
      await page.goto('/dashboard');
      const figure = page.getByRole('region', { name: 'Available Balance' });
      await figure.getByRole('button', { name: 'Show balance' }).click();
      const amount = figure.getByText('KWD 1,732.539');
      await amount.waitFor();
      const lineHeightPx = await amount.evaluate((node) =>
        Number.parseFloat(getComputedStyle(node).lineHeight),
      );
      expect((await box(amount)).height).toBeLessThan(lineHeightPx * 1.5);
      expect(await hasNoHorizontalScroll(page)).toBe(true);

      const bell = page.getByRole('button', { name: 'Notifications, 10 unread' });
      const count = bell.getByText('10', { exact: true });
      await count.waitFor();
      // Whole: the label is as wide as its text, and nothing around it cuts it off.
      expect(await count.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);
      const countBox = await box(count);
      const visible = await count.evaluate((node) => {
        const rect = node.getBoundingClientRect();
        let parent = node.parentElement;
        while (parent) {
          const style = getComputedStyle(parent);
          if (style.overflow !== 'visible') {
            const outer = parent.getBoundingClientRect();
            if (rect.left < outer.left || rect.right > outer.right || rect.top < outer.top) {
              return `cut by <${parent.tagName.toLowerCase()} class="${parent.className}">`;
            }
          }
          parent = parent.parentElement;
        }
        return 'whole';
      });
      expect(visible).toBe('whole');
      expect(countBox.x + countBox.width).toBeLessThanOrEqual(phone.width);
      await snapshot(page, 'dashboard-kwd-phone');
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'leaves Quick Pay’s Continue free of the Help button',
    async () => {
      const { page, problems } = await kuwaitiOnPhone();
      await page.goto('/dashboard');
      await page.getByRole('button', { name: 'Quick Pay', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Quick Pay' });
      const next = dialog.getByRole('button', { name: 'Continue' });
      await next.waitFor();
      const help = page.getByRole('link', { name: 'Help' });
      if (await help.isVisible()) {
        const [a, b] = [await box(next), await box(help)];
        const overlaps =
          a.x < b.x + b.width &&
          b.x < a.x + a.width &&
          a.y < b.y + b.height &&
          b.y < a.y + a.height;
        expect(overlaps).toBe(false);
      }
      // And the button takes the tap: nothing lies on top of its corners.
      const { x, y, width, height } = await box(next);
      for (const [pointX, pointY] of [
        [x + 8, y + height / 2],
        [x + width - 8, y + height / 2],
      ] as const) {
        const onTop = await page.evaluate(
          ([px, py]) => document.elementFromPoint(px, py)?.closest('button')?.textContent ?? '',
          [pointX, pointY] as const,
        );
        expect(onTop).toContain('Continue');
      }
      await snapshot(page, 'quick-pay-kwd-phone');
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'shows a toast at the top of the screen, clear of the button that raised it',
    async () => {
      const { page, problems } = await kuwaitiOnPhone();
      await page.goto('/dashboard/deposit');
      await page.getByLabel('Amount').fill('5.000');
      const add = page.getByRole('button', { name: 'Add test money' });
      await add.click();
      const shown = page.getByRole('alert').filter({ hasText: 'of test money to your wallet' });
      await shown.waitFor();
      const [toastBox, buttonBox] = [await box(shown), await box(add)];
      expect(toastBox.y).toBeLessThan(phone.height / 4);
      expect(toastBox.y + toastBox.height).toBeLessThan(buttonBox.y);
      await snapshot(page, 'toast-phone');

      // Beside a wide page it stays bottom-right.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByLabel('Amount').fill('1.000');
      await add.click();
      await page.getByRole('alert').filter({ hasText: 'KWD 1.000 of test money' }).waitFor();
      const wide = await box(
        page.getByRole('alert').filter({ hasText: 'KWD 1.000 of test money' }),
      );
      expect(wide.y).toBeGreaterThan(800 / 2);
      expect(wide.x).toBeGreaterThan(1280 / 2);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
