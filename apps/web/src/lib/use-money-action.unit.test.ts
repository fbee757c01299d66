import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { IntentKeys } from './use-money-action.ts';

function refusal(status: number, code: ApiError['code']): ApiError {
  return new ApiError({ status, code, message: code });
}

describe('IntentKeys', () => {
  it('keeps the key of the same body across retries that got no final answer', () => {
    const keys = new IntentKeys();
    const first = keys.keyFor({ amount: '40.00', note: 'refund' });
    for (const failure of [
      refusal(0, 'network_error'),
      refusal(0, 'timeout'),
      refusal(503, 'internal'),
      refusal(409, 'idempotency_in_progress'),
      refusal(400, 'step_up_required'),
      refusal(400, 'wrong_code'),
      refusal(429, 'rate_limited'),
    ]) {
      keys.settle(failure);
      // With a step-up code it is still the same intent.
      expect(keys.keyFor({ amount: '40.00', note: 'refund', stepUpCode: '123456' })).toBe(first);
    }
  });

  it('makes a new key for a changed body, even while the first has no answer', () => {
    const keys = new IntentKeys();
    const first = keys.keyFor({ amount: '40.001' });
    keys.settle(refusal(0, 'network_error'));
    expect(keys.keyFor({ amount: '40.00' })).not.toBe(first);
  });

  it('makes a new key after a success or a refusal the server keeps', () => {
    const keys = new IntentKeys();
    const first = keys.keyFor({ amount: '40.001' });
    keys.settle(refusal(400, 'validation_failed'));
    const second = keys.keyFor({ amount: '40.001' });
    expect(second).not.toBe(first);
    keys.settle();
    expect(keys.keyFor({ amount: '40.001' })).not.toBe(second);
  });
});
