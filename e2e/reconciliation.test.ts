// Payment files end to end against the sandbox server (issue #30, "Prove it"): staff send
// three EUR bank payouts as one pain.001 file, then import a camt.053 statement holding two
// of them, one customer's incoming credit and one unknown credit: the deposit request
// appears for the customer, the unknown credit and the missing payout wait in the
// reconciliation queue, and staff resolve them.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { camt053 } from '../apps/api/test/payment-files.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { unexpectedProblems } from './support/console.ts';
import {
  callApi,
  demo,
  logIn,
  pathOf,
  snapshotBothWidths,
  toast,
  userIdByEmail,
} from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 240_000;

const suite = useServerAndBrowser({ hasMailSink: true });

const ibans = ['DE02120300000000202051', 'FR1420041010050500013M02606', 'NL91ABNA0417164300'];

/** A bank payout from the signed-in customer's page, confirmed with the emailed code. */
async function requestPayout(page: Page, amount: string, iban: string): Promise<string> {
  const { baseUrl } = suite.server;
  const askedAt = new Date();
  const destination = {
    method: 'bank',
    holderName: 'Bruno Keller',
    bankName: 'Testbank',
    accountNumber: iban,
  };
  const challenge = await callApi(page, baseUrl, 'POST', '/api/v1/step-up/challenges', {
    purpose: 'payout',
    amount,
    destination,
  });
  expect(challenge.status).toBe(200);
  const mail = await suite.mailSink.waitForMail({
    to: demo.bruno.email,
    subject: 'verification code',
    after: askedAt,
  });
  const stepUpCode = /\b(\d{6})\b/.exec(mail.subject)?.[1] ?? '';
  const response = await page.request.fetch('/api/v1/payouts', {
    method: 'POST',
    headers: {
      origin: baseUrl,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    data: JSON.stringify({ ...destination, amount, stepUpCode }),
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

describe('payment files and reconciliation', () => {
  it(
    'sends a pain.001 batch, imports a statement of it and resolves what did not match',
    async () => {
      const { baseUrl } = suite.server;
      const { page, problems } = await suite.openPage();
      await logIn(page, demo.admin);
      const users = await callApi(
        page,
        baseUrl,
        'GET',
        `/api/v1/admin/users?search=${encodeURIComponent(demo.bruno.email)}`,
      );
      const brunoId = (users.json as { items: { id: string }[] }).items[0]?.id ?? '';
      const level = await callApi(page, baseUrl, 'POST', `/api/v1/admin/users/${brunoId}/level`, {
        level: 2,
        reason: 'Identity checked for the payment files browser test',
      });
      expect(level.status).toBe(200);

      const bruno = await suite.openPage();
      await logIn(bruno.page, demo.bruno);
      const accountNumber = (
        (await callApi(bruno.page, baseUrl, 'GET', '/api/v1/wallet')).json as {
          accountNumber: string;
        }
      ).accountNumber;
      const amounts = ['10.00', '20.50', '30.25'];
      for (const [index, amount] of amounts.entries()) {
        await requestPayout(bruno.page, amount, ibans[index] ?? '');
      }

      // Staff choose the three and download one pain.001 file, which sends them.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Reconciliation' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Reconciliation' }).waitFor();
      expect(pathOf(page)).toBe('/admin/reconciliation');
      for (const amount of amounts) {
        await page.getByRole('checkbox', { name: `Send Bruno Keller's EUR ${amount}` }).check();
      }
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Send 3 as a batch file (pain.001)' }).click(),
      ]);
      const pain001 = await readFile(await download.path(), 'utf8');
      expect(pain001).toContain('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
      const endToEndIds = [...pain001.matchAll(/<EndToEndId>([^<]+)<\/EndToEndId>/g)].map(
        (match) => match[1] ?? '',
      );
      expect(endToEndIds).toHaveLength(3);
      await page.getByText(/Already downloaded .* these payouts were sent/).waitFor();

      // The bank's statement: two of the three, Bruno's top-up and a credit nobody claims.
      const statement = camt053([
        { amount: amounts[0] ?? '', isCredit: false, endToEndId: endToEndIds[0] },
        { amount: amounts[1] ?? '', isCredit: false, endToEndId: endToEndIds[1] },
        {
          amount: '42.00',
          isCredit: true,
          remittance: `Top-up ${accountNumber}`,
          counterparty: 'Bruno Keller',
          bankReference: `TOPUP${Date.now()}`,
        },
        { amount: '7.77', isCredit: true, remittance: 'Invoice 99', counterparty: 'Someone' },
      ]);
      await page
        .getByRole('region', { name: 'Bank statement' })
        .locator('input[type="file"]')
        .setInputFiles({
          name: 'statement.xml',
          mimeType: 'application/xml',
          buffer: Buffer.from(statement),
        });
      await page.getByRole('button', { name: 'Import statement' }).click();
      await page
        .getByText('4 entries: 1 deposit request, 2 payouts matched, 2 waiting above.')
        .waitFor();
      const requests = await callApi(
        page,
        baseUrl,
        'GET',
        `/api/v1/admin/users/${brunoId}/money-requests`,
      );
      expect((requests.json as { items: object[] }).items[0]).toMatchObject({
        direction: 'deposit',
        amountMinor: '4200',
      });

      const credit = page.getByRole('region', { name: 'Credit matching no customer: EUR 7.77' });
      const missing = page.getByRole('region', {
        name: 'Sent payout missing from the statements: EUR 30.25',
      });
      await credit.getByText('Its remittance information names no customer account').waitFor();
      await missing.getByText(/no statement has debited it/).waitFor();
      expect(await seriousAxeViolations(page, 'reconciliation')).toEqual([]);
      await snapshotBothWidths(page, 'admin-reconciliation');

      await credit.getByLabel('Note').fill('Bruno phoned: his second top-up');
      await credit.getByLabel('Credit to account number (optional)').fill(accountNumber);
      await credit.getByRole('button', { name: 'Request deposit' }).click();
      await toast(page, 'Deposit request made: it waits for a second admin.');
      await missing.getByLabel('Note').fill('The bank books it on Monday');
      await missing.getByRole('button', { name: 'Resolve with note' }).click();
      await toast(page, 'Resolved with a note.');
      await page.getByText('Nothing to reconcile.').waitFor();
      expect(unexpectedProblems(problems)).toEqual([]);
      expect(unexpectedProblems(bruno.problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'imports a card settlement file missing one purchase and differing on another; staff resolve both',
    async () => {
      const { baseUrl } = suite.server;
      const { page, problems } = await suite.openPage();
      await logIn(page, demo.admin);
      const bruno = await suite.openPage();
      await logIn(bruno.page, demo.bruno);
      const send = async (target: Page, path: string, body: object) => {
        const response = await target.request.fetch(path, {
          method: 'POST',
          headers: {
            origin: baseUrl,
            'content-type': 'application/json',
            'idempotency-key': crypto.randomUUID(),
          },
          data: JSON.stringify(body),
        });
        expect(response.status(), await response.text()).toBeLessThan(300);
        return response.json() as Promise<Record<string, unknown>>;
      };
      const overview = await callApi(bruno.page, baseUrl, 'GET', '/api/v1/cards');
      const { level, terms } = overview.json as {
        level: number;
        terms: { creationFeeMinor: string };
      };
      if (level < 2) {
        const brunoId = await userIdByEmail(page, baseUrl, demo.bruno.email);
        await send(page, `/api/v1/admin/users/${brunoId}/level`, {
          level: 2,
          reason: 'Identity checked for the card settlement browser test',
        });
      }
      const card = await send(bruno.page, '/api/v1/cards', {
        confirmedFeeMinor: terms.creationFeeMinor,
      });
      await send(page, `/api/v1/admin/cards/${String(card.id)}/issue`, {});
      for (const [merchant, amount] of [
        ['Corner Shop', '4.20'],
        ['Book Nook', '12.00'],
        ['Night Bus', '2.50'],
      ]) {
        await send(bruno.page, '/api/v1/cards/simulated-purchases', { merchant, amount });
      }

      // The sandbox issuer's file of today, with the bookshop's line short by 2.00 and the
      // bus fare's left out: what a processor's file that differs from us looks like.
      await page.goto('/admin/reconciliation');
      await page.getByRole('heading', { level: 1, name: 'Reconciliation' }).waitFor();
      const day = await page.getByLabel('Day settled').inputValue();
      const file = await page.request.get(`/api/v1/admin/card-settlements/sandbox-file?day=${day}`);
      expect(file.status()).toBe(200);
      const lines = (await file.text()).split('\r\n').filter((line) => line !== '');
      const ours = lines.filter((line) => /,(4\.20|12\.00|2\.50),/.test(line));
      expect(ours).toHaveLength(3);
      const edited = [
        ...lines.filter((line) => !ours.includes(line)),
        ...ours.flatMap((line) =>
          line.includes(',2.50,') ? [] : [line.replace(',12.00,', ',10.00,')],
        ),
      ];
      await page
        .getByRole('region', { name: 'Card settlement file' })
        .locator('input[type="file"]')
        .setInputFiles({
          name: `card-settlements-${day}.csv`,
          mimeType: 'text/csv',
          buffer: Buffer.from(`${edited.join('\r\n')}\r\n`),
        });
      await page.getByRole('button', { name: 'Import settlements' }).click();
      await page.getByText(/matched, 2 waiting above\./).waitFor();

      const differs = page.getByRole('region', {
        name: /^Card settlement differs from ours: .*10\.00$/,
      });
      const missing = page.getByRole('region', {
        name: /^Card settlement missing from the file: .*2\.50$/,
      });
      await differs.getByText(/the processor settled .*10\.00 .*; ours was .*12\.00/).waitFor();
      await missing.getByText(/is not in the processor's file/).waitFor();
      expect(await seriousAxeViolations(page, 'reconciliation-cards')).toEqual([]);
      await snapshotBothWidths(page, 'admin-reconciliation-cards');

      await differs.getByLabel('Note').fill('The bookshop charged 10.00; give back the rest');
      await differs.getByRole('button', { name: /^Refund the cardholder .*2\.00$/ }).click();
      await toast(page, 'Refund request made: it waits for a second admin.');
      await missing.getByLabel('Note').fill('The processor settles the bus fare tomorrow');
      await missing.getByRole('button', { name: 'Resolve with note' }).click();
      await toast(page, 'Resolved with a note.');
      await page.getByText('Nothing to reconcile.').waitFor();
      expect(unexpectedProblems(problems)).toEqual([]);
      expect(unexpectedProblems(bruno.problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
