import type { Queryable } from '../db/client.ts';
import { fromSqlError } from '../db/sql-errors.ts';
import { callStepUpSpend, type StepUpSpendArguments } from './queries.ts';

/**
 * A step-up code that checked out (features/step-up) but is not spent yet. `spendStepUp`
 * spends it inside the transaction that moves the money, so a rolled-back movement leaves
 * it usable and a code can never confirm two movements.
 */
export type StepUpProof =
  | { method: 'totp'; userId: string; step: bigint }
  | { method: 'email'; userId: string; codeId: string }
  // A passkey's challenge was spent, once, when its answer was checked (passkeys/).
  | { method: 'passkey'; userId: string };

/** What step_up_spend takes after the user id: the emailed code's id or the TOTP step. */
export function stepUpSpendArguments(proof: StepUpProof | null): StepUpSpendArguments {
  if (!proof || proof.method === 'passkey') return { codeId: null, totpStep: null };
  return proof.method === 'totp'
    ? { codeId: null, totpStep: proof.step.toString() }
    : { codeId: proof.codeId, totpStep: null };
}

/** Spends a checked code in the money transaction; a code spent meanwhile is refused. */
export async function spendStepUp(tx: Queryable, proof: StepUpProof): Promise<void> {
  if (proof.method === 'passkey') return;
  try {
    await callStepUpSpend(tx, proof.userId, stepUpSpendArguments(proof));
  } catch (error) {
    throw fromSqlError(error);
  }
}
