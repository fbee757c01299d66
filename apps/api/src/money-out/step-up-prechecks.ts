import type { CurrencyCode } from '@coffer/contracts/currencies';
import { type StepUpPurpose, stepUpPurposes } from '@coffer/contracts/step-up';
import type { StepUpChallengeBody } from '@coffer/contracts/step-up-payments';
import { assert } from '../platform/assert.ts';
import type { SessionContext } from '../platform/sessions.ts';

/** The payment a step-up challenge is for, narrowed to one purpose. */
export type IntendedPayment<Purpose extends StepUpPurpose> = Extract<
  StepUpChallengeBody,
  { purpose: Purpose }
>;

/**
 * The payment an emailed code confirms (PSD2's dynamic linking): the email names the
 * amount and `payee`, and the code works only for a request with the same amount,
 * currency and `payeeKey` (what decides where the money goes, e.g. the account number).
 */
export type PaymentToConfirm = {
  amountMinor: bigint;
  currency: CurrencyCode;
  /** The payee in the customer's words: "First Test Bank account ending 5678". */
  payee: string;
  payeeKey: string;
};

/**
 * Everything that can refuse a payment of one purpose without the code (frozen, level,
 * limits, balance, recipient), run before a step-up code is sent; it throws the refusal,
 * or answers the payment the code will confirm.
 */
export type StepUpPrecheck<Purpose extends StepUpPurpose> = (
  session: SessionContext,
  intended: IntendedPayment<Purpose>,
) => Promise<PaymentToConfirm>;

function isFor<Purpose extends StepUpPurpose>(
  intended: StepUpChallengeBody,
  purpose: Purpose,
): intended is IntendedPayment<Purpose> {
  return intended.purpose === purpose;
}

/**
 * Each money feature registers the precheck of its own payments here, so that step-up asks
 * them without importing them: the money features use step-up, never the other way round.
 */
export class StepUpPrechecks {
  private readonly byPurpose = new Map<
    StepUpPurpose,
    (session: SessionContext, intended: StepUpChallengeBody) => Promise<PaymentToConfirm>
  >();

  register<Purpose extends StepUpPurpose>(purpose: Purpose, precheck: StepUpPrecheck<Purpose>) {
    assert(!this.byPurpose.has(purpose), `a second step-up precheck for ${purpose}`);
    this.byPurpose.set(purpose, (session, intended) => {
      assert(isFor(intended, purpose), `a ${intended.purpose} body for the ${purpose} precheck`);
      return precheck(session, intended);
    });
  }

  /** The purposes no feature has registered a precheck for (none, once the app is ready). */
  missing(): StepUpPurpose[] {
    return stepUpPurposes.filter((purpose) => !this.byPurpose.has(purpose));
  }

  run(session: SessionContext, intended: StepUpChallengeBody): Promise<PaymentToConfirm> {
    const precheck = this.byPurpose.get(intended.purpose);
    assert(precheck !== undefined, `no step-up precheck for ${intended.purpose}`);
    return precheck(session, intended);
  }
}
