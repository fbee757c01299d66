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

  it('shows anything it does not know as compact JSON rather than hiding it', () => {
    expect(describeChange(null, { device: { os: 'Linux' } })).toEqual([
      { label: 'device', after: '{"os":"Linux"}' },
    ]);
    expect(describeChange(null, null)).toEqual([]);
    expect(describeChange('old', 'new')).toEqual([
      { label: 'Change', before: '"old"', after: '"new"' },
    ]);
  });
});
