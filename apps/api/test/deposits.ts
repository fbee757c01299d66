// Deposits and adjustments recorded by staff, for the tests of four-eyes and of what they post.
import { newIdempotencyKey, type TestClient } from './http.ts';

export function moneyRequest(
  client: TestClient,
  userId: string,
  kind: 'deposits' | 'adjustments',
  body: object,
) {
  return client.post(`/api/v1/admin/users/${userId}/${kind}`, body, {
    'idempotency-key': newIdempotencyKey(),
  });
}
