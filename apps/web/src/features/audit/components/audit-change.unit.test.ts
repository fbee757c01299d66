import { setupI18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { messages as germanMessages } from '../locales/de.po';
import { messages as englishMessages } from '../locales/en.po';
import { describeChange } from './audit-change.ts';

const english = setupI18n({ locale: 'en', messages: { en: englishMessages } });

function describeInEnglish(before: unknown, after: unknown, subjectUserId: string | null = null) {
  return describeChange(before, after, english, subjectUserId);
}

describe('describeChange', () => {
  it('shows a changed value as before and after, in words', () => {
    expect(describeInEnglish({ level: 1 }, { level: 3 })).toEqual([
      { label: 'Level', before: '1', after: '3' },
    ]);
    expect(describeInEnglish({ isFrozen: false }, { isFrozen: true })).toEqual([
      { label: 'Transactions', before: 'enabled', after: 'disabled' },
    ]);
    expect(describeInEnglish({ role: 'customer' }, { role: 'admin' })).toEqual([
      { label: 'Role', before: 'Customer', after: 'Admin' },
    ]);
  });

  it('describes an exchange markup change: the pair, the basis points and where each came from', () => {
    expect(
      describeInEnglish(
        { pair: 'EUR/JPY', markupBp: 50, source: 'configured' },
        { pair: 'EUR/JPY', markupBp: 120, source: 'staff' },
      ),
    ).toEqual([
      { label: 'Pair', after: 'EUR/JPY' },
      { label: 'Markup in basis points', before: '50', after: '120' },
      { label: 'Set by', before: 'the configuration', after: 'staff' },
    ]);
  });

  // Intl puts a no-break space between the currency code and the amount.
  it('formats money in its currency and leaves out ids and empty fields', () => {
    expect(
      describeInEnglish(null, { amountMinor: '1000001', currency: 'USD', externalReference: null }),
    ).toEqual([{ label: 'Amount', after: 'USD\u00a010,000.01' }]);
    expect(
      describeInEnglish(
        { status: 'pending_approval', makerUserId: '0190' },
        { status: 'posted', amountMinor: '150000', currency: 'JPY' },
      ),
    ).toEqual([
      { label: 'Status', before: 'pending approval', after: 'posted' },
      { label: 'Amount', after: 'JPY\u00a0150,000' },
    ]);
  });

  it('names every recorded field in words, a fee of zero as none, and opens records that have a page', () => {
    expect(
      describeInEnglish(
        { status: 'pending' },
        { status: 'sent', amountMinor: '2500', feeMinor: '0', currency: 'USD' },
      ),
    ).toEqual([
      { label: 'Status', before: 'pending', after: 'sent' },
      { label: 'Amount', after: 'USD\u00a025.00' },
      { label: 'Fee', after: 'none' },
    ]);
    expect(
      describeInEnglish(
        { status: 'pending' },
        { status: 'resolved', reference: 'REF-AB12CD34E', refundRequestId: '0190aa' },
        'user-1',
      ),
    ).toEqual([
      { label: 'Status', before: 'pending', after: 'resolved' },
      { label: 'Reference', after: 'REF-AB12CD34E', link: '/admin/disputes/REF-AB12CD34E' },
      {
        label: 'Refund',
        after: 'Deposits & adjustments tab',
        link: '/admin/users/user-1?tab=requests',
      },
    ]);
    // Without a customer whose page holds it, an id has nothing to open and is left out.
    expect(describeInEnglish(null, { cardId: '0190aa', status: 'issued' })).toEqual([
      { label: 'Status', after: 'issued' },
    ]);
    expect(
      describeInEnglish(null, { problemType: 'unauthorized_transaction', payoutCount: 3 }),
    ).toEqual([
      { label: 'Problem', after: 'unauthorized transaction' },
      { label: 'Payouts', after: '3' },
    ]);
  });

  it('gives a field it has no words for its name in words, and anything else as compact JSON', () => {
    expect(describeInEnglish(null, { device: { os: 'Linux' } })).toEqual([
      { label: 'Device', after: '{"os":"Linux"}' },
    ]);
    expect(describeInEnglish(null, { settlementBatchId: 'b-1', isComplete: true })).toEqual([
      { label: 'Settlement batch', after: 'b-1' },
      { label: 'Complete', after: 'yes' },
    ]);
    expect(describeInEnglish(null, null)).toEqual([]);
    expect(describeInEnglish('old', 'new')).toEqual([
      { label: 'Change', before: '"old"', after: '"new"' },
    ]);
  });

  it("speaks the reader's language: labels and value words from the page's catalog", () => {
    const german = setupI18n({ locale: 'de', messages: { de: germanMessages } });
    expect(describeChange({ isFrozen: false }, { isFrozen: true }, german)).toEqual([
      { label: 'Transaktionen', before: 'aktiviert', after: 'deaktiviert' },
    ]);
    expect(describeChange(null, { refundRequestId: '0190aa' }, german, 'user-1')).toEqual([
      {
        label: 'Erstattung',
        after: 'Tab „Einzahlungen & Korrekturen“',
        link: '/admin/users/user-1?tab=requests',
      },
    ]);
  });
});
