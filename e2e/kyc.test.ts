// Identity verification end to end against the sandbox server: a level-1 customer sent from
// the withdraw form's level notice to /kyc uploads a 5 MB image over a throttled connection (the progress
// bar seen moving), submits, a support user views the document from the KYC queue and
// approves; the customer's open /kyc page and dashboard show level 2 without a reload and
// the payout refused before now goes through. A rejection shows its reason on a phone and
// the customer submits again.
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
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

async function fillDetails(page: Page): Promise<void> {
  await page.getByRole('combobox', { name: 'ID type' }).selectOption({ label: 'Passport' });
  await page.getByLabel('ID number').fill('X1234567');
  await page.getByLabel('Address').fill('Hauptstrasse 1, 10115 Berlin');
  await page.getByLabel('Date of birth').fill('1988-04-02');
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
      await page.getByText('Enter the ID number').waitFor();
      await page.getByText('Upload your ID document').waitFor();
      await fillDetails(page);

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
      expect(await seriousAxeViolations(staff, 'kyc queue')).toEqual([]);
      await snapshotBothWidths(staff, 'kyc-queue');

      await row.getByRole('button', { name: /View the ID document/ }).click();
      const viewer = staff.getByRole('dialog', { name: /ID document of Bruno Keller/ });
      const shown = viewer.getByRole('img', { name: /ID document of Bruno Keller/ });
      await staff.waitForFunction(
        (element) => element instanceof HTMLImageElement && element.naturalWidth === 1150,
        await shown.elementHandle(),
      );
      await snapshot(staff, 'kyc-document-viewer-desktop');
      await staff.keyboard.press('Escape');
      await viewer.waitFor({ state: 'detached' });

      await row.getByRole('button', { name: /Approve the verification/ }).click();
      const approve = staff.getByRole('dialog', { name: 'Approve verification' });
      await approve.getByRole('button', { name: 'Approve' }).click();
      await toast(staff, `Verification approved: ${demo.bruno.username}`);
      await staff.getByText('Nothing waiting').waitFor();

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
      await fillDetails(page);
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
      await fillDetails(page);
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
