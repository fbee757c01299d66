import { describe, expect, it } from 'vitest';
import { describeChange } from './audit-change.ts';

describe('describeChange', () => {
  it('shows a changed value as before and after, in words', () => {
    expect(describeChange({ level: 1 }, { level: 3 })).toEqual([
      { label: 'Level', before: '1', after: '3' },
    ]);
    expect(describeChange({ isFrozen: false }, { isFrozen: true })).toEqual([
      { label: 'Transactions', before: 'enabled', after: 'disabled' },
    ]);
    expect(describeChange({ role: 'customer' }, { role: 'admin' })).toEqual([
      { label: 'Role', before: 'Customer', after: 'Admin' },
    ]);
  });

  // Intl puts a no-break space between the currency code and the amount.
  it('formats money in its currency and leaves out ids and empty fields', () => {
    expect(
      describeChange(null, { amountMinor: '1000001', currency: 'USD', externalReference: null }),
    ).toEqual([{ label: 'Amount', after: 'USD\u00a010,000.01' }]);
    expect(
      describeChange(
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
      describeChange(
        { status: 'pending' },
        { status: 'sent', amountMinor: '2500', feeMinor: '0', currency: 'USD' },
      ),
    ).toEqual([
      { label: 'Status', before: 'pending', after: 'sent' },
      { label: 'Amount', after: 'USD\u00a025.00' },
      { label: 'Fee', after: 'none' },
    ]);
    expect(
      describeChange(
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
    expect(describeChange(null, { cardId: '0190aa', status: 'issued' })).toEqual([
      { label: 'Status', after: 'issued' },
    ]);
    expect(
      describeChange(null, { problemType: 'unauthorized_transaction', payoutCount: 3 }),
    ).toEqual([
      { label: 'Problem', after: 'unauthorized transaction' },
      { label: 'Payouts', after: '3' },
    ]);
  });

  it('gives a field it has no words for its name in words, and anything else as compact JSON', () => {
    expect(describeChange(null, { device: { os: 'Linux' } })).toEqual([
      { label: 'Device', after: '{"os":"Linux"}' },
    ]);
    expect(describeChange(null, { settlementBatchId: 'b-1', isComplete: true })).toEqual([
      { label: 'Settlement batch', after: 'b-1' },
      { label: 'Complete', after: 'yes' },
    ]);
    expect(describeChange(null, null)).toEqual([]);
    expect(describeChange('old', 'new')).toEqual([
      { label: 'Change', before: '"old"', after: '"new"' },
    ]);
  });
});
