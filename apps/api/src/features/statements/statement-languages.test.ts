import type { Language } from '@coffer/contracts/languages';
import { formatMoney } from '@coffer/contracts/money';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { usd } from '../../../test/factories.ts';
import { signedUpClient } from '../../../test/http.ts';
import { type PdfTextPiece, pdfText, pdfTextPieces } from '../../../test/pdf-text.ts';
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

type Posting = { kind: 'deposit' | 'bill_payment'; amountMinor: bigint; memo: string };

/** By default 1,234.50 USD deposited and 12.25 paid out, both "Salary". */
const salaryPostings: readonly Posting[] = [
  { kind: 'deposit', amountMinor: 123_450n, memo: 'Salary' },
  { kind: 'bill_payment', amountMinor: -1_225n, memo: 'Salary' },
];

/** A customer who chose `language`, with `postings` on their wallet this month. */
async function customerIn(language: Language, postings: readonly Posting[] = salaryPostings) {
  const { client, user } = await signedUpClient(app);
  const chosen = await client.request('PUT', '/api/v1/profile/language', { language });
  expect(chosen.statusCode, chosen.body).toBe(200);
  const found = await app.db.query<{ id: AccountId }>(
    "SELECT id FROM accounts WHERE owner_user_id = $1 AND kind = 'customer'",
    [user.id],
  );
  const walletId = found.rows[0]?.id;
  if (!walletId) throw new Error('sign-up opens a wallet');
  for (const { kind, amountMinor, memo } of postings) {
    await app.ledger.post({
      kind,
      memo,
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
async function textPieces(pdf: Buffer): Promise<PdfTextPiece[]> {
  return (await pdfTextPieces(pdf)).filter((piece) => piece.page === 1);
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

/** 300 characters of `sentence` again and again: a description no column holds on one line. */
function descriptionOf300(sentence: string): string {
  return sentence
    .repeat(Math.ceil(300 / sentence.length))
    .slice(0, 300)
    .trim();
}

const longDescriptions = {
  en: descriptionOf300(
    'Renovation of the community hall roof: scaffolding, materials, labour, tiles, ref. INV-2026-00042-ABCDEFGH. ',
  ),
  ja: descriptionOf300(
    '地域会館の屋根改修工事の支払い、足場と資材と人件費を含みます。請求書番号二〇二六の四十二。',
  ),
  ar: descriptionOf300(
    'دفعة لتجديد سقف قاعة المجتمع، بما في ذلك السقالات والمواد وأجور العمال والتخلص من البلاط القديم. ',
  ),
} as const;

/**
 * The table's columns on A4 (595.28 pt wide, 50 pt margins), from the left: date, type,
 * description, amount, balance; an Arabic statement's are mirrored, the date on the right.
 */
function columnsFromLeft(language: Language): { left: number; right: number }[] {
  const widthsPt = [70, 80, 155, 95, 95];
  const pageWidthPt = 595.28;
  let left = 50;
  const columns = widthsPt.map((widthPt) => {
    const column = { left, right: left + widthPt };
    left += widthPt;
    return column;
  });
  if (language !== 'ar') return columns;
  return columns
    .map(({ left: from, right: to }) => ({ left: pageWidthPt - to, right: pageWidthPt - from }))
    .reverse();
}

describe('statement PDF cells that wrap', () => {
  for (const language of ['en', 'ja', 'ar'] as const) {
    it(`${language}: a 300-character description wraps inside its column, and its row grows`, async () => {
      const description = longDescriptions[language];
      expect(description.length).toBeGreaterThan(290);
      const client = await customerIn(language, [
        { kind: 'deposit', amountMinor: 123_450n, memo: description },
        { kind: 'bill_payment', amountMinor: -1_225n, memo: 'Salary' },
      ]);
      const response = await client.get(`/api/v1/statements?month=${thisMonth}&format=pdf`);
      expect(response.statusCode).toBe(200);
      const pieces = await textPieces(response.rawPayload);
      // The deposit's row starts at its amount's baseline; the bill's row is the next one.
      const depositY = pieces.find((piece) => /\+.*1,234\.50/.test(piece.text))?.y;
      const billY = pieces.find((piece) => /[-−]\s?.*12\.25/.test(piece.text))?.y;
      if (depositY === undefined || billY === undefined) throw new Error('both rows are drawn');
      const rows = pieces.filter((piece) => piece.y <= depositY + 1 && piece.y >= billY - 1);
      const columns = columnsFromLeft(language);
      // pdf.js counts the advance of some Arabic marks (the dots of ش) that the font's
      // positioning takes back, so it reads Arabic pieces up to 3 pt wider than drawn
      // (poppler's pdftotext -bbox measures them as drawn). Their start is exact.
      const widthSlackPt = language === 'ar' ? 3 : 0.5;
      const columnOf = (piece: PdfTextPiece) =>
        columns.findIndex(
          ({ left, right }) =>
            piece.x >= left - 0.5 && piece.x + piece.widthPt <= right + widthSlackPt,
        );
      const crossing = rows.filter((piece) => columnOf(piece) === -1);
      expect(crossing, 'pieces of text that cross a column’s edge').toEqual([]);
      // The description's lines below the row's first: in the description column, and all
      // above the next row (the row is as tall as its tallest cell).
      const wrapped = rows.filter((piece) => piece.y < depositY - 1 && piece.y > billY + 1);
      const descriptionColumn = 2;
      expect(new Set(wrapped.map((piece) => piece.y)).size).toBeGreaterThanOrEqual(5);
      for (const piece of wrapped) expect(columnOf(piece)).toBe(descriptionColumn);
      if (language !== 'ar') {
        // Every character is printed, in reading order (pdf.js reads Arabic's joined forms
        // back as other letters, so the Arabic one is checked by place only).
        const described = rows
          .filter((piece) => columnOf(piece) === descriptionColumn && piece.y > billY + 1)
          .sort((a, b) => b.y - a.y || a.x - b.x)
          .map((piece) => piece.text)
          .join('');
        expect(described.replace(/\s/g, '')).toBe(description.replace(/\s/g, ''));
      }
    });
  }

  it('breaks pages between rows: a row is never split, nothing runs off the page', async () => {
    // Each description ends in a mark of its own ("row7end"): its last line.
    const postings = Array.from({ length: 12 }, (_, index) => ({
      kind: 'deposit' as const,
      amountMinor: 100n + BigInt(index),
      memo: `${longDescriptions.ar} row${index + 1}end`,
    }));
    const client = await customerIn('ar', postings);
    const response = await client.get(`/api/v1/statements?month=${thisMonth}&format=pdf`);
    expect(response.statusCode).toBe(200);
    const pieces = await pdfTextPieces(response.rawPayload);
    expect(Math.max(...pieces.map((piece) => piece.page))).toBeGreaterThan(1);
    // Nothing inside the bottom margin (50 pt), less a descender.
    expect(pieces.filter((piece) => piece.y < 45)).toEqual([]);
    postings.forEach((posting, index) => {
      const amountText = `+1.${String(posting.amountMinor - 100n).padStart(2, '0')} USD`;
      const amount = pieces.find((piece) => piece.text.trim() === amountText);
      const lastLine = pieces.find((piece) => piece.text.includes(`row${index + 1}end`));
      if (!amount || !lastLine) throw new Error(`row ${index + 1} is drawn`);
      // The row's first line (its amount) and its description's last line on one page.
      expect(lastLine.page, `row ${index + 1}`).toBe(amount.page);
      expect(lastLine.y).toBeLessThan(amount.y);
    });
  });
});
