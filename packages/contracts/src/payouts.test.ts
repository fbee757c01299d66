import { describe, expect, it } from 'vitest';
import { describePayoutDestination, payoutBodySchema } from './payouts.ts';

const bank = {
  method: 'bank',
  holderName: 'Ada Lovelace',
  bankName: 'First Test Bank',
  accountNumber: 'gb82 west 1234 5698 7654 32',
  amount: '12.50',
};

function fieldErrors(body: object): Record<string, string> {
  const parsed = payoutBodySchema.safeParse(body);
  if (parsed.success) return {};
  return Object.fromEntries(
    parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]),
  );
}

describe('the withdraw form’s schema, shared with the server', () => {
  it('keeps only the chosen method’s fields, with the account number compacted', () => {
    const parsed = payoutBodySchema.parse({ ...bank, email: 'left@over.example', coin: 'BTC' });
    expect(parsed).toEqual({ ...bank, accountNumber: 'GB82WEST12345698765432' });
  });

  it.each([['abc'], ['0'], ['0.00'], ['-1'], ['1,000'], ['']])(
    'refuses the amount %j with the product’s words',
    (amount) => {
      expect(fieldErrors({ ...bank, amount })).toEqual({ amount: 'Invalid withdrawal amount' });
    },
  );

  it('checks an address’s form for its coin; checksums are the server’s', () => {
    const crypto = { method: 'crypto', amount: '1' };
    const ethAddress = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    expect(fieldErrors({ ...crypto, coin: 'ETH', address: ethAddress })).toEqual({});
    expect(fieldErrors({ ...crypto, coin: 'USDT', address: ethAddress })).toEqual({});
    expect(fieldErrors({ ...crypto, coin: 'BTC', address: ethAddress })).toEqual({
      address: 'Enter a valid BTC address',
    });
    expect(fieldErrors({ ...crypto, coin: 'ETH', address: '0x123' })).toEqual({
      address: 'Enter a valid ETH address',
    });
  });
});

describe('describePayoutDestination', () => {
  it('names a bank account by its last four digits and a crypto address by its ends', () => {
    expect(describePayoutDestination(payoutBodySchema.parse(bank))).toBe(
      'First Test Bank account ending 5432',
    );
    expect(
      describePayoutDestination({
        method: 'crypto',
        coin: 'BTC',
        address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      }),
    ).toBe('BTC address bc1qar0s…wf5mdq');
  });
});
