// Card requests, staff decisions and the issuing processor's signed calls, for the tests
// of cards and of what guards them.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { newId } from '../src/platform/ids.ts';
import { issuerSignatureHeaders } from '../src/platform/issuer-signature.ts';
import type { TestCustomer } from './customers.ts';
import { newIdempotencyKey, type TestClient } from './http.ts';

/** Asks for a card, confirming `feeMinor` (100.00 USD by default, as PRODUCT.md says). */
export function requestCard(
  customer: TestCustomer,
  feeMinor = '10000',
  idempotencyKey = newIdempotencyKey(),
): Promise<LightMyRequestResponse> {
  return customer.client.post(
    '/api/v1/cards',
    { confirmedFeeMinor: feeMinor },
    { 'idempotency-key': idempotencyKey },
  );
}

/** A customer's card requested and issued by `admin`; its id and the issuer's token. */
export async function issuedCard(
  app: FastifyInstance,
  customer: TestCustomer,
  admin: TestClient,
): Promise<{ cardId: string; token: string }> {
  const requested = await requestCard(customer);
  if (requested.statusCode !== 201) throw new Error(`card request failed: ${requested.body}`);
  const cardId: string = requested.json().id;
  const issued = await admin.post(`/api/v1/admin/cards/${cardId}/issue`, {});
  if (issued.statusCode !== 200) throw new Error(`issue failed: ${issued.body}`);
  return { cardId, token: await cardToken(app, cardId) };
}

export async function cardToken(app: FastifyInstance, cardId: string): Promise<string> {
  const found = await app.db.query<{ issuer_token: string }>(
    'SELECT issuer_token FROM cards WHERE id = $1',
    [cardId],
  );
  const token = found.rows[0]?.issuer_token;
  if (!token) throw new Error('the card has no token');
  return token;
}

/** One signed call to an issuing endpoint, as a processor makes it. */
export function signedIssuingCall(
  app: FastifyInstance,
  path: 'authorizations' | 'settlements',
  body: object,
  options: { secret?: string; nowMs?: number; signature?: string } = {},
): Promise<LightMyRequestResponse> {
  const payload = JSON.stringify(body);
  const headers = issuerSignatureHeaders(
    options.secret ?? app.config.issuingSecret,
    payload,
    options.nowMs,
  );
  if (options.signature !== undefined) headers['coffer-issuing-signature'] = options.signature;
  return app.inject({
    method: 'POST',
    url: `/api/v1/issuing/${path}`,
    payload,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A purchase authorization of `amountMinor` (USD) on the card; `id` is the processor's. */
export function authorizeOnCard(
  app: FastifyInstance,
  token: string,
  amountMinor: bigint,
  options: { id?: string; merchant?: string; currency?: string } = {},
): Promise<LightMyRequestResponse> {
  return signedIssuingCall(app, 'authorizations', {
    id: options.id ?? `auth_${newId()}`,
    cardToken: token,
    amountMinor: amountMinor.toString(),
    currency: options.currency ?? 'USD',
    merchant: options.merchant ?? 'Corner Shop',
  });
}

export function settle(
  app: FastifyInstance,
  authorizationId: string,
  type: 'capture' | 'reversal' | 'expiry' = 'capture',
  id = `settle_${newId()}`,
): Promise<LightMyRequestResponse> {
  return signedIssuingCall(app, 'settlements', { id, authorizationId, type });
}
