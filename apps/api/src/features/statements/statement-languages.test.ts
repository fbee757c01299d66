import { formatMoney } from '@coffer/contracts/money';
import type { FastifyInstance } from 'fastify';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { usd } from '../../../test/factories.ts';
import { signedUpClient } from '../../../test/http.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import type { AccountId } from '../../ledger/ledger.ts';

let app: FastifyInstance;
let settlement: AccountId;

useTestApp(
  async (opened) => {
    app = opened.app;
    settlement = await app.ledger.systemAccount('settlement', usd);
  },
  { checksAfterEach: 'ledger' },
);

/** A customer who chose `language`, with 1,234.50 USD deposited and 12.25 paid out this month. */
async function customerIn(language: 'de' | 'ja' | 'ar') {
  const { client, user } = await signedUpClient(app);
  const chosen = await client.request('PUT', '/api/v1/profile/language', { language });
  expect(chosen.statusCode, chosen.body).toBe(200);
  const found = await app.db.query<{ id: AccountId }>(
    "SELECT id FROM accounts WHERE owner_user_id = $1 AND kind = 'customer'",
    [user.id],
  );
  const walletId = found.rows[0]?.id;
  if (!walletId) throw new Error('sign-up opens a wallet');
  for (const [kind, amountMinor] of [
    ['deposit', 123_450n],
    ['bill_payment', -1_225n],
  ] as const) {
    await app.ledger.post({
      kind,
      memo: 'Salary',
      lines: [
        { accountId: walletId, amountMinor },
        { accountId: settlement, amountMinor: -amountMinor },
      ],
    });
  }
  return client;
}

const thisMonth = new Date().toISOString().slice(0, 7);

/** Each piece of text on the first page with where it starts, left to right. */
async function textPieces(pdf: Buffer): Promise<{ text: string; x: number; y: number }[]> {
  const loading = getDocument({ data: new Uint8Array(pdf), verbosity: 0 });
  try {
    const page = await (await loading.promise).getPage(1);
    const content = await page.getTextContent();
    return content.items.flatMap((item) =>
      'str' in item && item.str.trim() !== ''
        ? [{ text: item.str, x: item.transform[4] as number, y: item.transform[5] as number }]
        : [],
    );
  } finally {
    await loading.destroy();
  }
}

describe('statements in the customer’s language', () => {
  it('writes a Japanese PDF: headings in Japanese, amounts in its locale, no "?"', async () => {
    const client = await customerIn('ja');
    const response = await client.get(`/api/v1/statements?month=${thisMonth}&format=pdf`);
    expect(response.statusCode).toBe(200);
    const text = (await pdfText(response.rawPayload)).replace(/\s+/g, ' ');
    for (const words of [
      '取引明細書',
      '口座名義',
      '期首残高',
      '期末残高',
      '入金合計',
      '日付',
      '残高',
    ]) {
      expect(text).toContain(words);
    }
    expect(text).toContain('入金');
    const closing = formatMoney(
      { amountMinor: 122_225n, currency: usd },
      { locale: 'ja', currencyDisplay: 'code' },
    );
    expect(text.replace(/\s/g, '')).toContain(`期末残高:${closing.replace(/\s/g, '')}`);
    expect(text).not.toContain('?');
    expect(response.rawPayload.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansJP-/);
    // The right-aligned headings whose characters are in two font files: side by side, in
    // order, not printed over each other.
    const pieces = await textPieces(response.rawPayload);
    for (const [first, second] of [
      ['金', '額'],
      ['残', '高'],
    ]) {
      // 日付's second character, which no other line of the page has.
      const headingY = pieces.find((piece) => piece.text === '付')?.y;
      const [a, b] = [first, second].map((char) =>
        pieces.find(
          (piece) => Math.abs(piece.y - (headingY ?? 0)) < 3 && piece.text.includes(char ?? ''),
        ),
      );
      expect(a && b, `${first}${second} in the table's heading`).toBeTruthy();
      // One piece holding both, or two, the second a character's width to the right.
      expect(a === b || (b?.x ?? 0) - (a?.x ?? 0) > 5).toBe(true);
    }
  });

  it('writes an Arabic PDF from the right: shaped Arabic words, amounts readable', async () => {
    const client = await customerIn('ar');
    const response = await client.get(`/api/v1/statements?month=${thisMonth}&format=pdf`);
    expect(response.statusCode).toBe(200);
    const pdf = response.rawPayload;
    expect(pdf.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansArabic-/);
    const text = (await pdfText(pdf)).replace(/\p{Cc}/gu, '');
    expect(text).not.toContain('?');
    // Read back as drawn, left to right: the value, then the label, its words from the right
    // ("صاحب الحساب", account holder). pdf.js reads some joined letter forms pdfkit maps to
    // no character as other letters, so the test reads labels made of letters it reads back.
    const drawn = text.replace(/\s+/g, ' ');
    expect(drawn).toMatch(/Tester \d+ ?: ?الحساب ?صاحب/);
    expect(drawn).toMatch(/1,222\.25 USD ?:/);
    // Laid out from the right: the title ends at the right margin, the amounts of a row
    // are left of its date.
    const pieces = await textPieces(pdf);
    const title = pieces.find((piece) => piece.text.includes('الحساب'));
    expect(title?.x).toBeGreaterThan(300);
    const deposit = pieces.find((piece) => piece.text.includes('1,234.50'));
    const depositDate = pieces.find(
      (piece) => piece.y === deposit?.y && /\d{4}/.test(piece.text) && piece !== deposit,
    );
    expect(deposit && depositDate && deposit.x < depositDate.x).toBe(true);
  });

  it('writes a German CSV with semicolons and decimal commas, headings in German', async () => {
    const client = await customerIn('de');
    const response = await client.get(`/api/v1/statements?month=${thisMonth}&format=csv`);
    expect(response.statusCode).toBe(200);
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Datum (UTC);Art;Beschreibung;Betrag;Währung;Saldo');
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-01;Anfangssaldo;;;USD;0,00$/);
    expect(lines).toContainEqual(expect.stringMatching(/;Einzahlung;Salary;1234,50;USD;1234,50$/));
    expect(lines).toContainEqual(
      expect.stringMatching(/;Rechnungszahlung;Salary;-12,25;USD;1222,25$/),
    );
    expect(lines.at(-1)).toMatch(/;Schlusssaldo;;;USD;1222,25$/);
  });
});
