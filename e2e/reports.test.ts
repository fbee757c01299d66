// Reports with charts end to end against the sandbox server (issue #30 item 6): staff open
// Reports from the side menu and read the sandbox's demo history as charts and as tables;
// a customer's dashboard shows their spending by category beside the balance chart.
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe.ts';
import { unexpectedProblems } from './support/console.ts';
import { balanceRegion, demo, logIn, pathOf, snapshotBothWidths } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 180_000;

const suite = useServerAndBrowser();

describe('the reports', () => {
  it(
    'draws the daily volumes, people and queues, each with a table of the same figures',
    async () => {
      const { page, problems } = await suite.openPage();
      await logIn(page, demo.support);
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Reports' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
      expect(pathOf(page)).toBe('/admin/reports');

      const volumes = page.getByRole('region', { name: 'Daily volumes in USD' });
      // The chart is drawn, bars of the sandbox's deposits among them, and its table is
      // there for screen readers.
      await volumes.locator('.recharts-surface').waitFor();
      expect(await volumes.locator('.recharts-bar-rectangle path').count()).toBeGreaterThan(0);
      const hiddenTable = volumes.getByRole('table', { name: 'Daily volumes in USD, by day' });
      expect(await hiddenTable.getByRole('columnheader', { name: 'Quick Pay' }).count()).toBe(1);
      // The sandbox's demo history moved money in the last days: some deposit is not zero.
      const depositCells = await hiddenTable.locator('tbody tr td:nth-child(2)').allTextContents();
      expect(depositCells.some((text) => /^USD\s[\d,]*[1-9][\d,]*\.\d{2}$/.test(text))).toBe(true);
      await page.getByRole('region', { name: 'Open queue sizes' }).waitFor();
      expect(await seriousAxeViolations(page, 'reports')).toEqual([]);
      await snapshotBothWidths(page, 'admin-reports');

      // Staff who would rather read figures switch the chart to its table.
      await page.setViewportSize({ width: 1280, height: 800 });
      await volumes.getByText('Table', { exact: true }).click();
      await volumes.getByRole('table', { name: 'Daily volumes in USD, by day' }).waitFor();
      expect(await volumes.locator('.recharts-surface').count()).toBe(0);
      const people = page.getByRole('region', { name: 'New customers and verifications' });
      expect(await people.locator('.recharts-surface').count()).toBe(1);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'shows a customer their last six months of spending by category on the dashboard',
    async () => {
      const { page, problems } = await suite.openPage();
      await logIn(page, demo.alice);
      const spending = page.getByRole('region', { name: 'Spending, last 6 months' });
      // Six months, this one last. The sign-in page hands over to the dashboard as soon as
      // the address changes, so wait for the table before counting its rows.
      const table = spending.getByRole('table', { name: 'Spending by month and category' });
      await table.locator('tbody tr').nth(5).waitFor();
      expect(await table.locator('tbody tr').count()).toBe(6);
      const thisMonth = new Date().toLocaleDateString('en-US', {
        month: 'short',
        year: 'numeric',
        timeZone: 'UTC',
      });
      expect(await table.locator('tbody tr').last().getByRole('rowheader').textContent()).toBe(
        thisMonth,
      );
      const show = balanceRegion(page).getByRole('button', { name: 'Show balance' });
      if (await show.isVisible()) await show.click();
      // Alice's demo electricity bill, 45.20, in one of the last two months.
      await table.getByRole('cell', { name: '$45.20' }).waitFor();
      expect(await seriousAxeViolations(page, 'dashboard spending')).toEqual([]);
      await snapshotBothWidths(page, 'dashboard-spending');
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
