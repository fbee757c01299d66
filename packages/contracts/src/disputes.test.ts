import { describe, expect, it } from 'vitest';
import { disputeRefundBound } from './disputes.ts';

const usd = (amountMinor: bigint) => ({ amountMinor, currency: 'USD' });

describe('disputeRefundBound', () => {
  it('is the disputed amount when nothing is linked', () => {
    expect(disputeRefundBound(usd(100n), null)).toEqual({
      amountMinor: 100n,
      basis: 'the disputed amount',
    });
  });

  it('is the linked transaction’s size when smaller, a debit line counted by its size', () => {
    const bound = { amountMinor: 500n, basis: 'the linked transaction’s amount' };
    expect(disputeRefundBound(usd(2_500n), usd(-500n))).toEqual(bound);
    expect(disputeRefundBound(usd(2_500n), usd(500n))).toEqual(bound);
  });

  it('stays the disputed amount when the linked transaction is as large or larger', () => {
    expect(disputeRefundBound(usd(500n), usd(-500n)).basis).toBe('the disputed amount');
    expect(disputeRefundBound(usd(500n), usd(-9_999n)).amountMinor).toBe(500n);
  });

  it('ignores a linked line in another currency, which is no bound in this one', () => {
    expect(disputeRefundBound({ amountMinor: 1_000n, currency: 'JPY' }, usd(-5n))).toEqual({
      amountMinor: 1_000n,
      basis: 'the disputed amount',
    });
  });
});
