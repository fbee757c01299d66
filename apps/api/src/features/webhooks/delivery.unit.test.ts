import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { retryDelayMs, signatureHeader } from './delivery.ts';

describe('retryDelayMs', () => {
  it('waits 30 s after the first failure, doubling to at most an hour', () => {
    expect([1, 2, 3, 4, 7, 8, 9, 30].map(retryDelayMs)).toEqual([
      30_000, 60_000, 120_000, 240_000, 1_920_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
  });
});

describe('signatureHeader', () => {
  const current = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const previous = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
  const body = '{"type":"money.deposit"}';
  const sentAt = new Date();
  const headersWith = (signature: string) => ({
    'webhook-id': 'evt-1',
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': signature,
  });

  it('signs with every secret given, each verifiable on its own', () => {
    const header = signatureHeader([current, previous], 'evt-1', sentAt, body);
    expect(header.split(' ')).toHaveLength(2);
    for (const secret of [current, previous]) {
      expect(new Webhook(secret).verify(body, headersWith(header))).toEqual({
        type: 'money.deposit',
      });
    }
  });

  it('does not verify a changed body', () => {
    const header = signatureHeader([current], 'evt-1', sentAt, body);
    expect(() => new Webhook(current).verify(`${body} `, headersWith(header))).toThrow();
  });
});
