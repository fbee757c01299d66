// Identity verification end to end against the sandbox server: a level-1 customer sent from
// the withdraw form's level notice to /kyc uploads a 5 MB image over a throttled connection (the progress
// bar seen moving), submits, a support user views the document from the KYC queue and
// approves; the customer's open /kyc page and dashboard show level 2 without a reload and
// the payout refused before now goes through. Staff review the document beside the details
// it is checked against (stacked on a phone) and decide from there; the legal name Bruno
// typed then heads his staff page and his statement. A rejection shows its reason on a phone
// and the customer starts again from everything she sent, uploading only the document.
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe.ts';
import { unexpectedProblems } from './support/console.ts';
import { demo, logIn, snapshot, snapshotBothWidths, toast } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 240_000;

const suite = useServerAndBrowser({ hasMailSink: true });

/**
 * A real PNG of random pixels (random data does not compress, so its size is about the
 * pixels' bytes), drawn by the browser's own canvas so it displays in the viewer.
 */
async function randomPng(page: Page, side: number): Promise<string> {
  const base64 = await page.evaluate((size) => {
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    const image = context.createImageData(size, size);
    for (let index = 0; index < image.data.length; index += 1) {
      image.data[index] = index % 4 === 3 ? 255 : Math.floor(Math.random() * 256);
    }
    context.putImageData(image, 0, 0);
    return canvas.toDataURL('image/png').split(',')[1] ?? '';
  }, side);
  const file = path.join(os.tmpdir(), `coffer-kyc-${side}-${Date.now()}.png`);
  await writeFile(file, Buffer.from(base64, 'base64'));
  return file;
}

/** What Bruno's passport says, not the name he goes by (the seed's name is replaced). */
const brunoLegalName = 'Bruno M. Keller-Jäger';
const yukiLegalName = '田中 由紀';
const hostileName = '<img src=x onerror=alert(1)>';

async function fillDetails(page: Page, legalName: string): Promise<void> {
  await page.getByLabel('Legal name').fill(legalName);
  await page.getByRole('combobox', { name: 'ID type' }).selectOption({ label: 'Passport' });
  await page.getByLabel('ID number').fill('X1234567');
  await page.getByLabel('Address').fill('Hauptstrasse 1, 10115 Berlin');
  await page.getByLabel('Date of birth').fill('1988-04-02');
}

/** Whether the element is wholly inside the window and every box that clips it. */
async function isWhollyVisible(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    if (rect.left < 0 || rect.right > window.innerWidth) return false;
    for (let box = element.parentElement; box; box = box.parentElement) {
      if (getComputedStyle(box).overflowX === 'visible') continue;
      const clip = box.getBoundingClientRect();
      if (rect.left < clip.left - 0.5 || rect.right > clip.right + 0.5) return false;
    }
    return true;
  });
}

/** Records every value the upload progress bar shows, from before the upload starts. */
async function recordProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { progressSeen: number[] }).progressSeen = seen;
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"][aria-valuenow]');
      const value = Number(bar?.getAttribute('aria-valuenow'));
      if (bar && !seen.includes(value)) seen.push(value);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
}

describe('identity verification', () => {
  it(
    'takes a level-1 customer from the withdraw form’s level notice to a first withdrawal',
    async () => {
      const { context, page, problems } = await suite.openPage();
      await logIn(page, demo.bruno);
      // A second tab on the dashboard, left open: it must change without a reload.
      const dashboard = await context.newPage();
      await dashboard.goto('/dashboard');
      await dashboard.getByTestId('account-level').getByText('Account level 1').waitFor();

      await page.goto('/transfer?tab=withdraw');
      await page.getByRole('heading', { name: 'Withdraw money' }).waitFor();
      // Level 1 is told before filling anything in that withdrawals need level 2.
      const notice = page.getByTestId('allowance-payout');
      await notice.getByText('Withdrawals need account level 2.').waitFor();
      await notice.getByRole('link', { name: 'Verify your identity' }).click();
      await page.getByRole('heading', { level: 1, name: 'Identity verification' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/kyc');
      await page.getByText('Not verified yet').waitFor();
      expect(await seriousAxeViolations(page, 'kyc form')).toEqual([]);
      await snapshotBothWidths(page, 'kyc-none');

      // The form's own checks come before anything is sent.
      await page.getByRole('button', { name: 'Submit KYC' }).click();
      await page.getByText('Enter your legal name as it is on your ID').waitFor();
      await page.getByText('Enter the ID number').waitFor();
      await page.getByText('Upload your ID document').waitFor();
      // Markup is not a name: refused on the field, never sent.
      await page.getByLabel('Legal name').fill(hostileName);
      await page.getByRole('button', { name: 'Submit KYC' }).click();
      await page.getByText('Use letters, spaces, hyphens, apostrophes and dots only').waitFor();
      await fillDetails(page, brunoLegalName);

      const image = await randomPng(page, 1150);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 20,
        downloadThroughput: -1,
        uploadThroughput: 1.5 * 1024 * 1024,
      });
      await recordProgress(page);
      await page.locator('input[type="file"]').setInputFiles(image);
      await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
      await snapshot(page, 'kyc-uploading-desktop');
      await page.getByText('Image uploaded successfully').waitFor({ timeout: 60_000 });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      const seen = await page.evaluate(
        () => (window as unknown as { progressSeen: number[] }).progressSeen,
      );
      const intermediate = seen.filter((value) => value > 0 && value < 100);
      expect(
        new Set(intermediate).size,
        `progress values ${seen.join(', ')}`,
      ).toBeGreaterThanOrEqual(2);

      await page.getByRole('button', { name: 'Submit KYC' }).click();
      await toast(page, 'Your verification was submitted.');
      await page
        .getByText('Your verification is pending review. We will notify you when it is decided.', {
          exact: false,
        })
        .waitFor();
      await snapshotBothWidths(page, 'kyc-pending');

      // Support works the queue in their own browser; Bruno's pages are not reloaded.
      const { page: staff, problems: staffProblems } = await suite.openPage();
      await logIn(staff, demo.support);
      const sideMenu = staff.getByRole('navigation', { name: 'Main' });
      await sideMenu
        .getByRole('link', { name: /KYC queue/ })
        .getByLabel('1 waiting')
        .waitFor();
      await sideMenu.getByRole('link', { name: /KYC queue/ }).click();
      await staff.getByRole('heading', { level: 1, name: 'KYC queue' }).waitFor();
      const row = staff
        .getByRole('table', { name: 'Verifications waiting for review' })
        .getByRole('row')
        .filter({ hasText: demo.bruno.username });
      await row.getByText('X1234567').waitFor();
      await row.getByText(brunoLegalName).waitFor();
      // Every action of the row fits beside the menu at 1,280 px: nothing to scroll to.
      expect(
        await isWhollyVisible(row.getByRole('button', { name: /Reject the verification/ })),
      ).toBe(true);
      expect(await seriousAxeViolations(staff, 'kyc queue')).toEqual([]);
      await snapshotBothWidths(staff, 'kyc-queue');

      await row.getByRole('button', { name: /Review the verification/ }).click();
      const viewer = staff.getByRole('dialog', { name: /ID document of Bruno Keller/ });
      const shown = viewer.getByRole('img', { name: /ID document of Bruno Keller/ });
      await staff.waitForFunction(
        (element) => element instanceof HTMLImageElement && element.naturalWidth === 1150,
        await shown.elementHandle(),
      );
      // The details the document is checked against, beside it on a desktop.
      const details = viewer.getByTestId('kyc-review-details');
      for (const text of [brunoLegalName, 'X1234567', 'Hauptstrasse 1, 10115 Berlin']) {
        await details.getByText(text).waitFor();
      }
      await details.getByText(/1988/).waitFor();
      const documentBox = await viewer.getByTestId('kyc-review-document').boundingBox();
      const detailsBox = await details.boundingBox();
      expect(detailsBox?.x ?? 0).toBeGreaterThanOrEqual(
        (documentBox?.x ?? 0) + (documentBox?.width ?? 0),
      );
      await snapshot(staff, 'kyc-review-desktop');
      // On a phone, stacked: the details under the document.
      await staff.setViewportSize({ width: 390, height: 844 });
      await staff.waitForFunction(() => window.innerWidth === 390);
      const documentOnPhone = await viewer.getByTestId('kyc-review-document').boundingBox();
      const detailsOnPhone = await details.boundingBox();
      expect(detailsOnPhone?.y ?? 0).toBeGreaterThanOrEqual(
        (documentOnPhone?.y ?? 0) + (documentOnPhone?.height ?? 0),
      );
      await snapshot(staff, 'kyc-review-phone');
      await staff.setViewportSize({ width: 1280, height: 800 });

      // Decided from the review itself.
      await details.getByRole('button', { name: 'Approve' }).click();
      const approve = staff.getByRole('dialog', { name: 'Approve verification' });
      await approve.getByText(brunoLegalName).waitFor();
      // The keyboard is in the decision, not left behind on the closed review's button.
      await expect
        .poll(() => approve.evaluate((dialog) => dialog.contains(document.activeElement)))
        .toBe(true);
      await approve.getByRole('button', { name: 'Approve' }).click();
      await toast(staff, `Verification approved: ${demo.bruno.username}`);
      await staff.getByText('Nothing waiting').waitFor();
      // His staff page now leads with the name on his passport, the username beside it.
      await row.waitFor({ state: 'detached' });
      await staff.goto('/admin');
      await staff.getByRole('searchbox', { name: 'Search users' }).fill(demo.bruno.email);
      const listRow = staff.getByRole('table', { name: 'Users' }).getByRole('row').filter({
        hasText: demo.bruno.email,
      });
      await listRow.getByText(brunoLegalName).waitFor();
      await listRow.getByRole('link', { name: `View ${demo.bruno.username}` }).click();
      await staff
        .getByRole('heading', { level: 1, name: `${brunoLegalName} · ${demo.bruno.username}` })
        .waitFor();

      // Live, on both of Bruno's open pages, and by email.
      await page.getByText('Your identity is verified. Your account is level 2.').waitFor();
      await dashboard.getByTestId('account-level').getByText('Account level 2').waitFor();
      await suite.mailSink.waitForMail({
        to: demo.bruno.email,
        subject: 'Your identity is verified',
      });
      await snapshotBothWidths(page, 'kyc-approved');

      // The withdrawal Upgrade Required refused now reaches its confirmation.
      await page.getByRole('link', { name: 'Transfer' }).first().click();
      await page.goto('/transfer?tab=withdraw');
      await page.getByLabel('Account holder name').fill('Bruno Keller');
      await page.getByLabel('Bank name').fill('Berliner Testbank');
      await page.getByLabel('Account number or IBAN').fill('DE89 3704 0044 0532 0130 00');
      await page.getByLabel('Amount').fill('10.00');
      const askedAt = new Date();
      await page.getByRole('button', { name: 'Withdraw' }).click();
      const confirm = page.getByRole('dialog', { name: 'Confirm withdrawal' });
      const mail = await suite.mailSink.waitForMail({
        to: demo.bruno.email,
        subject: 'verification code',
        after: askedAt,
      });
      const code = /\b(\d{6})\b/.exec(mail.subject)?.[1] ?? '';
      await confirm.getByLabel('Verification code').fill(code);
      await confirm.getByRole('button', { name: 'Confirm' }).click();
      await toast(page, 'Withdrawal request pending approval.');

      await page.goto('/profile');
      await page.getByText('Identity verification approved').first().waitFor();
      // His statement names the account holder as his passport does.
      await page.goto('/statements');
      await page.getByText(`Account holder: ${brunoLegalName}`).waitFor();

      expect(
        unexpectedProblems(problems, [{ path: '/api/v1/kyc/submissions', status: 400 }]),
      ).toEqual([]);
      expect(unexpectedProblems(staffProblems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'shows a rejection’s reason and takes a second submission, on a phone',
    async () => {
      const { page, problems } = await suite.openPage('phone');
      await logIn(page, demo.yuki);
      await page.goto('/kyc');
      await fillDetails(page, yukiLegalName);
      const image = await randomPng(page, 300);
      await page.locator('input[type="file"]').setInputFiles(image);
      await page.getByText('Image uploaded successfully').waitFor();
      await page.getByRole('button', { name: 'Submit KYC' }).click();
      await page.getByText('Pending review', { exact: true }).waitFor();

      const { page: staff, problems: staffProblems } = await suite.openPage();
      await logIn(staff, demo.support);
      await staff.goto('/admin');
      await staff.getByLabel('Search users').fill(demo.yuki.email);
      const listRow = staff.getByRole('row').filter({ hasText: demo.yuki.email });
      await listRow.getByText('Pending').waitFor();
      await listRow.getByRole('link', { name: /View/ }).click();
      await staff.getByRole('tab', { name: 'KYC' }).click();
      const tabRow = staff
        .getByRole('table', { name: 'Identity verifications' })
        .getByRole('row')
        .filter({ hasText: 'X1234567' });
      await tabRow.getByRole('button', { name: /Reject the verification/ }).click();
      const reject = staff.getByRole('dialog', { name: 'Reject verification' });
      await reject.getByRole('button', { name: 'Reject' }).click();
      await reject.getByText('Please give a reason').waitFor();
      await reject.getByLabel('Reason').fill('The photo of the passport is blurred');
      await reject.getByRole('button', { name: 'Reject' }).click();
      await toast(staff, `Verification rejected: ${demo.yuki.username}`);
      await snapshotBothWidths(staff, 'kyc-customer-tab');

      await page.getByText('The photo of the passport is blurred', { exact: false }).waitFor();
      await snapshotBothWidths(page, 'kyc-rejected');
      // Everything she typed is there to correct, not to retype; only the document is asked
      // for again, and she is told so.
      expect(await page.getByLabel('Legal name').inputValue()).toBe(yukiLegalName);
      expect(await page.getByRole('combobox', { name: 'ID type' }).inputValue()).toBe('passport');
      expect(await page.getByLabel('ID number').inputValue()).toBe('X1234567');
      expect(await page.getByLabel('Address').inputValue()).toBe('Hauptstrasse 1, 10115 Berlin');
      expect(await page.getByLabel('Date of birth').inputValue()).toBe('1988-04-02');
      await page.getByText('upload your document again', { exact: false }).waitFor();
      await page.getByRole('button', { name: 'Submit KYC' }).click();
      await page.getByText('Upload your ID document').waitFor();
      await page.locator('input[type="file"]').setInputFiles(image);
      await page.getByText('Image uploaded successfully').waitFor();
      await page.getByRole('button', { name: 'Submit KYC' }).click();
      await page.getByText('Pending review', { exact: true }).waitFor();

      await staff.goto('/admin');
      await staff.getByLabel('Search users').fill(demo.yuki.email);
      await staff
        .getByRole('row')
        .filter({ hasText: demo.yuki.email })
        .getByText('Pending')
        .waitFor();

      expect(unexpectedProblems(problems)).toEqual([]);
      expect(unexpectedProblems(staffProblems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
