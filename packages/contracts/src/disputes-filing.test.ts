import { describe, expect, it } from 'vitest';
import {
  disputeBodySchema,
  disputeKindOfEntryText,
  disputeProblemTypesOf,
} from './disputes-filing.ts';
import { entryKinds } from './ledger.ts';

const cardPurchase = {
  kind: 'card',
  entryId: '0193a0a0-0000-7000-8000-000000000001',
  amount: '42.00',
  problemType: 'charged_twice',
  description: 'Twice for one coffee.',
};

describe('disputes filed from a transaction', () => {
  it('gives every kind of ledger line a kind of dispute, and an unknown one the account kind', () => {
    expect(entryKinds.map(disputeKindOfEntryText)).not.toContain('general');
    expect(disputeKindOfEntryText('card_purchase')).toBe('card');
    expect(disputeKindOfEntryText('a_kind_from_a_later_build')).toBe('account');
  });

  it('offers card problems on a card purchase and none of them on a deposit', () => {
    expect(disputeProblemTypesOf('card')).toEqual([
      'unauthorized_transaction',
      'charged_twice',
      'goods_not_received',
      'wrong_amount',
      'other',
    ]);
    expect(disputeProblemTypesOf('deposit')).not.toContain('charged_twice');
    expect(disputeProblemTypesOf('general')).toEqual([
      'withdrawal_not_working',
      'deposit_not_working',
      'unauthorized_transaction',
      'other',
    ]);
  });

  it('asks a card purchase for no recipient, and refuses one rather than drop it', () => {
    expect(disputeBodySchema.safeParse(cardPurchase).success).toBe(true);
    const withRecipient = { ...cardPurchase, recipientAccountNumber: '0000000000' };
    expect(disputeBodySchema.safeParse(withRecipient).success).toBe(false);
    const general = { ...cardPurchase, kind: 'general', problemType: 'other' };
    const generalIssues = disputeBodySchema.safeParse(general).error?.issues ?? [];
    expect(generalIssues.map((issue) => issue.path.join('.'))).toContain('recipientAccountNumber');
  });
});
