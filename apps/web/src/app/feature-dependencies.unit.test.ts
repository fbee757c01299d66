import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { frameName, pageFeatureDependencies } from '../../feature-dependencies.ts';

const srcDir = path.resolve(import.meta.dirname, '..');
const table = pageFeatureDependencies(srcDir);

describe("a page's catalogs", () => {
  it("are those of the features the page's own files reach, not every file of its feature", () => {
    const customerList = table['src/features/admin/pages/customer-list-page.tsx'];
    expect(customerList).toContain('admin');
    // The customer page beside it shows loans and cards; the list shows neither.
    expect(customerList).not.toContain('loans');
    expect(customerList).not.toContain('cards');
    expect(table['src/features/admin/pages/customer-detail-page.tsx']).toEqual(
      expect.arrayContaining(['admin', 'loans', 'cards', 'disputes']),
    );
  });

  it('follow what a page loads on demand through another feature’s index.ts', () => {
    // The dashboard opens transfers' Quick Pay dialog with import().
    expect(table['src/features/wallet/pages/dashboard-page.tsx']).toEqual(
      expect.arrayContaining(['wallet', 'transfers', 'payees']),
    );
  });

  it('name every page of every feature, and the frame', () => {
    expect(table[frameName]).toBeDefined();
    expect(table['src/features/auth/pages/signup-page.tsx']).toEqual(['auth', 'terms']);
  });
});
