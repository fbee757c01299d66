// The operator's books end to end against the sandbox server: staff open Books from the
// side menu, see today's trial balance (provisional, debits equal to credits), download it
// as CSV; only the admin is offered the general-ledger export.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe.ts';
import { unexpectedProblems } from './support/console.ts';
import { demo, logIn, pathOf, snapshot } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 180_000;

const suite = useServerAndBrowser();

describe('the books', () => {
  it(
    'shows staff today’s trial balance, balanced and provisional, and downloads it',
    async () => {
      const { page, problems } = await suite.openPage();
      await logIn(page, demo.admin);
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      // Every sandbox day so far balances: the staff home raises no alert.
      expect(await page.getByTestId('books-alert').count()).toBe(0);

      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Books' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Books' }).waitFor();
      expect(pathOf(page)).toBe('/admin/books');
      await page.getByText('Provisional', { exact: true }).waitFor();
      const usd = page.getByRole('table', { name: 'Trial balance in USD' });
      await usd.getByRole('cell', { name: 'Customer deposits' }).waitFor();
      const debits = await page.getByTestId('total-debits-USD').textContent();
      expect(debits).toMatch(/^USD\s[\d,]+\.\d{2}$/);
      expect(await page.getByTestId('total-credits-USD').textContent()).toBe(debits);
      await page.getByText('Balanced', { exact: true }).first().waitFor();
      expect(await seriousAxeViolations(page, 'books')).toEqual([]);
      await snapshot(page, 'admin-books-desktop');

      const [saved] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download trial balance (CSV)' }).click(),
      ]);
      expect(saved.suggestedFilename()).toMatch(/^trial-balance-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = await readFile(await saved.path(), 'utf8');
      expect(csv).toContain('Currency,GL code,GL name,Opening,Debits,Credits,Closing\r\n');
      expect(csv).toMatch(/\r\nUSD,2100,Customer deposits,/);
      await page.getByRole('link', { name: 'Download journal lines (CSV)' }).waitFor();
      expect(unexpectedProblems(problems)).toEqual([]);

      // Support reads the books too, without the export of every account's lines.
      const support = await suite.openPage();
      await logIn(support.page, demo.support);
      await support.page.goto('/admin/books');
      await support.page.getByRole('heading', { level: 1, name: 'Books' }).waitFor();
      await support.page.getByRole('table', { name: 'Trial balance in USD' }).waitFor();
      expect(
        await support.page.getByRole('link', { name: 'Download journal lines (CSV)' }).count(),
      ).toBe(0);
      expect(unexpectedProblems(support.problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
