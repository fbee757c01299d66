import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  customerListQuerySchema,
  decisionBodySchema,
  freezeBodySchema,
  moneyRequestBodySchema,
  rejectBodySchema,
  setLevelBodySchema,
  setRoleBodySchema,
} from './admin.ts';
import {
  forgotPasswordBodySchema,
  loginBodySchema,
  resetPasswordBodySchema,
  secondFactorBodySchema,
  tokenBodySchema,
} from './auth.ts';
import { billPaymentBodySchema } from './bills.ts';
import { payoutBodySchema, sendPayoutBodySchema } from './payouts.ts';
import {
  changeEmailBodySchema,
  changePasswordBodySchema,
  totpDisableBodySchema,
  totpSetupBodySchema,
  updateUsernameBodySchema,
} from './profile.ts';
import { signupBodySchema } from './signup.ts';
import { statementQuerySchema } from './statements.ts';
import { multiLineText, passwordText, singleLineText } from './text.ts';
import { quickPayBodySchema, recipientPreviewBodySchema } from './transfers.ts';
import { testMoneyBodySchema } from './wallet.ts';
import type { z } from './zod.ts';

function messagesOf(schema: z.ZodMiniType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
}

const oneLine = singleLineText({ max: 20 });
const paragraph = multiLineText({ max: 20 });
const password = passwordText({ max: 20 });

describe('the shared text schema', () => {
  it.each([
    ['NUL', 'a\u0000b', 'Remove the invisible control character (U+0000)'],
    ['a C0 control (ESC)', 'a\u001bb', 'Remove the invisible control character (U+001B)'],
    ['a tab inside one line', 'a\tb', 'Remove the invisible control character (U+0009)'],
    ['a newline inside one line', 'a\nb', 'Remove the invisible control character (U+000A)'],
    ['DEL', 'a\u007fb', 'Remove the invisible control character (U+007F)'],
    ['a C1 control (NEL)', 'a\u0085b', 'Remove the invisible control character (U+0085)'],
    ['a C1 control (CSI)', 'a\u009bb', 'Remove the invisible control character (U+009B)'],
    ['a lone high surrogate', 'a\ud83db', 'Remove the broken character (U+D83D) and type it again'],
    ['a lone low surrogate', 'a\ude00b', 'Remove the broken character (U+DE00) and type it again'],
    [
      'a pair in the wrong order',
      '\ude00\ud83d',
      'Remove the broken character (U+DE00) and type it again',
    ],
  ])('refuses %s in one line, naming it', (_name, text, message) => {
    expect(messagesOf(oneLine, text)).toEqual([message]);
  });

  it.each([
    ['accented letters', 'Zoë Ångström-Núñez'],
    ['another script', '山田 太郎'],
    ['emoji, joined ones too', 'Lunch 🍜 👩‍👩‍👧'],
    ['combining marks', 'Cafe\u0301'],
    ['punctuation', `O'Brien & Co. <ok>`],
  ])('accepts %s', (_name, text) => {
    expect(oneLine.parse(text)).toBe(text);
    expect(paragraph.parse(text)).toBe(text);
    expect(password.parse(text)).toBe(text);
  });

  it('trims one line and paragraphs, but never a password', () => {
    expect(oneLine.parse('  Ada \t')).toBe('Ada');
    expect(paragraph.parse('\n Ada\n')).toBe('Ada');
    expect(password.parse('  pass word ')).toBe('  pass word ');
  });

  it('lets paragraphs have tabs and newlines, and nothing else below a space', () => {
    expect(paragraph.parse('one\ntwo\r\n\tthree')).toBe('one\ntwo\r\n\tthree');
    expect(messagesOf(paragraph, 'one\u000btwo')).toEqual([
      'Remove the invisible control character (U+000B)',
    ]);
    expect(messagesOf(paragraph, 'one\u0000')).toEqual([
      'Remove the invisible control character (U+0000)',
    ]);
  });

  it.each([
    ['a right-to-left override', 'Refund \u202egnp.exe', 'U+202E'],
    ['a left-to-right embedding', 'a\u202ab', 'U+202A'],
    ['a right-to-left isolate', 'a\u2067b', 'U+2067'],
  ])('refuses %s, which makes the text shown read otherwise than it is', (_name, text, name) => {
    const message = `Remove the invisible control character (${name})`;
    expect(messagesOf(oneLine, text)).toEqual([message]);
    expect(messagesOf(paragraph, text)).toEqual([message]);
  });

  it('accepts right-to-left scripts and their marks as typed', () => {
    expect(oneLine.parse('שלום עולם')).toBe('שלום עולם');
    expect(oneLine.parse('مرحبا\u200f 42')).toBe('مرحبا\u200f 42');
  });

  it('refuses only NUL and broken characters in a password', () => {
    expect(password.parse('tab\there\u0085')).toBe('tab\there\u0085');
    expect(messagesOf(password, 'pass\u0000word')).toEqual([
      'Remove the invisible control character (U+0000)',
    ]);
    expect(messagesOf(password, 'pass\ud800word')).toEqual([
      'Remove the broken character (U+D800) and type it again',
    ]);
  });

  it('counts the maximum after trimming, in UTF-16 code units like String.length', () => {
    expect(oneLine.parse(`  ${'x'.repeat(20)}  `)).toBe('x'.repeat(20));
    expect(messagesOf(oneLine, 'x'.repeat(21))).toEqual(['Use at most 20 characters']);
    expect(messagesOf(oneLine, '🍜'.repeat(11))).toEqual(['Use at most 20 characters']);
    expect(messagesOf(singleLineText({ max: 3, tooLong: 'Too long' }), 'abcd')).toEqual([
      'Too long',
    ]);
  });

  it('names a missing field with its own message when given one, and only a missing one', () => {
    const withMissing = singleLineText({ max: 3, missing: 'Enter it' });
    expect(messagesOf(withMissing, undefined)).toEqual(['Enter it']);
    expect(messagesOf(withMissing, 'a\u0000')).toEqual([
      'Remove the invisible control character (U+0000)',
    ]);
    expect(messagesOf(withMissing, 'abcd')).toEqual(['Use at most 3 characters']);
  });

  it('accepts only text PostgreSQL stores exactly as it was sent', () => {
    const utf16Text = fc
      .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 30 })
      .map((units) => String.fromCharCode(...units));
    fc.assert(
      fc.property(utf16Text, (text) => {
        for (const schema of [singleLineText({ max: 40 }), multiLineText({ max: 40 })]) {
          const parsed = schema.safeParse(text);
          if (!parsed.success) continue;
          const codePoints = [...parsed.data].map((character) => character.codePointAt(0) ?? 0);
          const isParagraphControl = (codePoint: number) => [0x09, 0x0a, 0x0d].includes(codePoint);
          expect(
            codePoints.filter(
              (codePoint) =>
                (codePoint < 0x20 && !isParagraphControl(codePoint)) ||
                (codePoint >= 0x7f && codePoint <= 0x9f),
            ),
          ).toEqual([]);
          // A lone surrogate would not survive the trip through UTF-8.
          expect(Buffer.from(parsed.data, 'utf8').toString('utf8')).toBe(parsed.data);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

const stepUpCode = '123456';

/** A valid request for every schema a person's text reaches, and its text fields. */
const requests: [
  name: string,
  schema: z.ZodMiniType,
  body: Record<string, unknown>,
  fields: string[],
][] = [
  [
    'login',
    loginBodySchema,
    { email: 'ada@example.com', password: 'secret' },
    ['email', 'password'],
  ],
  [
    'sign-up',
    signupBodySchema,
    {
      username: 'Ada',
      email: 'ada@example.com',
      phone: '+14155552671',
      password: 'Plum-Harbor-Lantern-42',
      country: 'US',
    },
    ['username', 'email', 'phone', 'password'],
  ],
  [
    'second factor',
    secondFactorBodySchema,
    { challengeToken: 'abc', code: '123456' },
    ['challengeToken', 'code'],
  ],
  ['email link', tokenBodySchema, { token: 'abc' }, ['token']],
  ['forgot password', forgotPasswordBodySchema, { email: 'ada@example.com' }, ['email']],
  [
    'reset password',
    resetPasswordBodySchema,
    { token: 'abc', password: 'Plum-Harbor-42' },
    ['token', 'password'],
  ],
  ['username', updateUsernameBodySchema, { username: 'Ada' }, ['username']],
  [
    'email change',
    changeEmailBodySchema,
    { newEmail: 'ada@example.com', currentPassword: 'secret' },
    ['newEmail', 'currentPassword'],
  ],
  [
    'password change',
    changePasswordBodySchema,
    { currentPassword: 'secret', newPassword: 'Plum-Harbor-42' },
    ['currentPassword', 'newPassword'],
  ],
  ['authenticator setup', totpSetupBodySchema, { currentPassword: 'secret' }, ['currentPassword']],
  ['authenticator removal', totpDisableBodySchema, { code: '123456' }, ['code']],
  [
    'recipient preview',
    recipientPreviewBodySchema,
    { recipient: 'ada@example.com' },
    ['recipient'],
  ],
  [
    'Quick Pay',
    quickPayBodySchema,
    { recipient: 'ada@example.com', amount: '5.00', note: 'Lunch' },
    ['recipient', 'amount', 'note'],
  ],
  [
    'bank payout',
    payoutBodySchema,
    {
      method: 'bank',
      holderName: 'Ada',
      bankName: 'First Bank',
      accountNumber: '12345678',
      amount: '5.00',
      stepUpCode,
    },
    ['holderName', 'bankName', 'accountNumber', 'amount'],
  ],
  [
    'CashApp payout',
    payoutBodySchema,
    { method: 'cashapp', emailOrCashtag: '$ada', holderName: 'Ada', amount: '5.00', stepUpCode },
    ['emailOrCashtag', 'holderName'],
  ],
  [
    'crypto payout',
    payoutBodySchema,
    {
      method: 'crypto',
      coin: 'ETH',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      amount: '5.00',
      stepUpCode,
    },
    ['address'],
  ],
  [
    'bill',
    billPaymentBodySchema,
    { category: 'water', billerReference: 'AB-1', amount: '5.00' },
    ['billerReference', 'amount'],
  ],
  ['test money', testMoneyBodySchema, { amount: '5.00' }, ['amount']],
  ['staff search', customerListQuerySchema, { search: 'ada' }, ['search']],
  ['freeze', freezeBodySchema, { reason: 'Fraud' }, ['reason']],
  ['level', setLevelBodySchema, { level: 2, reason: 'KYC' }, ['reason']],
  ['role', setRoleBodySchema, { role: 'support', reason: 'Hired' }, ['reason']],
  [
    'deposit or adjustment',
    moneyRequestBodySchema,
    { amount: '5.00', externalReference: 'WIRE-1', reason: 'Wire' },
    ['amount', 'externalReference', 'reason'],
  ],
  ['approval', decisionBodySchema, { reason: 'Checked' }, ['reason']],
  ['rejection', rejectBodySchema, { reason: 'No receipt' }, ['reason']],
  [
    'payout sent',
    sendPayoutBodySchema,
    { externalReference: 'TX-1', reason: 'Sent' },
    ['externalReference', 'reason'],
  ],
  ['statement', statementQuerySchema, { month: '2026-01' }, ['month']],
];

describe('every request schema a person types into', () => {
  it.each(requests)('takes a valid %s request', (_name, schema, body) => {
    expect(schema.safeParse(body).error?.issues ?? []).toEqual([]);
  });

  it.each(requests)(
    'refuses a NUL in each text field of a %s request',
    (_name, schema, body, fields) => {
      for (const field of fields) {
        const parsed = schema.safeParse({ ...body, [field]: `${String(body[field])}\u0000` });
        expect(parsed.success, field).toBe(false);
        expect(
          parsed.error?.issues.map((issue) => issue.path.join('.')),
          field,
        ).toContain(field);
      }
    },
  );
});
