// Quick Pay requests, for the tests of transfers and of what reads them.
import { newIdempotencyKey, type TestClient } from './http.ts';

export function quickPay(
  client: TestClient,
  body: {
    recipient: string;
    amount: string;
    note?: string;
    stepUpCode?: string;
    walletId?: string;
  },
  idempotencyKey: string = newIdempotencyKey(),
) {
  return client.post('/api/v1/transfers', body, { 'idempotency-key': idempotencyKey });
}
