import {
  type CardAuthorization,
  type IssuingAuthorizationBody,
  type IssuingSettlementBody,
  issuingAuthorizationAnswerSchema,
  type SimulatePurchaseBody,
} from '@coffer/contracts/cards';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { errorBodySchema } from '@coffer/contracts/errors';
import { positiveAmountOrRefuse } from '../../platform/amounts.ts';
import { AppError } from '../../platform/app-error.ts';
import { assert } from '../../platform/assert.ts';
import { sha256Hex } from '../../platform/crypto.ts';
import { findAuthorizationByProcessorId, latestCardOf } from './queries.ts';
import { type CardDeps, toAuthorization } from './shared.ts';

/** Sends a signed request to one of the issuing endpoints and gives back its answer. */
export type SendSigned = (
  url: string,
  body: IssuingAuthorizationBody | IssuingSettlementBody,
) => Promise<{ statusCode: number; body: unknown }>;

/** Refuses with the endpoint's own error when it did not answer 200. */
function refuseUnlessOk(answer: { statusCode: number; body: unknown }): void {
  if (answer.statusCode === 200) return;
  const error = errorBodySchema.safeParse(answer.body);
  assert(error.success, `the issuing endpoint answered ${answer.statusCode} without an error`);
  throw new AppError(error.data.error.code, { message: error.data.error.message });
}

/**
 * The sandbox's "Simulate purchase": it plays the processor, sending a signed
 * authorization for the customer's card and, when approved, its settlement, through the
 * same endpoints a processor calls. The processor ids derive from the request's
 * Idempotency-Key, so a retry is the processor's retry: the same answer, one hold.
 */
export async function simulatePurchase(
  deps: CardDeps,
  request: {
    userId: string;
    idempotencyKey: string;
    purchase: SimulatePurchaseBody;
    sendSigned: SendSigned;
  },
): Promise<{ authorization: CardAuthorization }> {
  const card = await latestCardOf(deps.db, request.userId);
  if (!card?.issuer_token) {
    throw new AppError('state_conflict', { message: 'You have no issued card to pay with.' });
  }
  const amountMinor = positiveAmountOrRefuse(
    request.purchase.amount,
    toCurrencyCode(card.currency),
    'cardPurchase',
  );
  const processorId = `sim_${sha256Hex(`${request.userId}:${request.idempotencyKey}`)}`;
  const authorized = await request.sendSigned('/api/v1/issuing/authorizations', {
    id: processorId,
    cardToken: card.issuer_token,
    amountMinor: amountMinor.toString(),
    currency: card.currency,
    merchant: request.purchase.merchant,
  });
  refuseUnlessOk(authorized);
  if (issuingAuthorizationAnswerSchema.parse(authorized.body).approved) {
    const settled = await request.sendSigned('/api/v1/issuing/settlements', {
      id: `sim_settlement_${processorId.slice(4)}`,
      authorizationId: processorId,
      type: 'capture',
    });
    refuseUnlessOk(settled);
  }
  const row = await findAuthorizationByProcessorId(deps.db, processorId);
  assert(row, 'an authorization for a known card is kept');
  return { authorization: toAuthorization(row) };
}
