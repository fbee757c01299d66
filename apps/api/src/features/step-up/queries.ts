import type { StepUpPurpose } from '@coffer/contracts/step-up';
import type { Queryable } from '../../db/client.ts';

/** Replaces the customer's live codes for a purpose with a new one (its hash only). */
export async function replaceStepUpCode(
  tx: Queryable,
  code: {
    id: string;
    userId: string;
    purpose: StepUpPurpose;
    codeHash: string;
    paymentHash: string;
    expiresAt: Date;
  },
): Promise<void> {
  await tx.query(
    `UPDATE step_up_codes SET consumed_at = now()
      WHERE user_id = $1 AND purpose = $2 AND consumed_at IS NULL`,
    [code.userId, code.purpose],
  );
  await tx.query(
    `INSERT INTO step_up_codes (id, user_id, purpose, code_hash, payment_hash, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [code.id, code.userId, code.purpose, code.codeHash, code.paymentHash, code.expiresAt],
  );
}

/**
 * Spends one try of the newest live code with tries left, under its row lock (which
 * orders parallel tries), and answers it; null when there is none.
 */
export async function spendStepUpCodeTry(
  db: Queryable,
  wanted: { userId: string; purpose: StepUpPurpose; triesMax: number },
): Promise<{ id: string; code_hash: string; payment_hash: string | null } | null> {
  const tried = await db.query<{ id: string; code_hash: string; payment_hash: string | null }>(
    `UPDATE step_up_codes SET failed_attempts = failed_attempts + 1
      WHERE id = (SELECT id FROM step_up_codes
                   WHERE user_id = $1 AND purpose = $2 AND consumed_at IS NULL
                     AND expires_at > now() AND failed_attempts < $3
                   ORDER BY created_at DESC LIMIT 1 FOR UPDATE)
      RETURNING id, code_hash, payment_hash`,
    [wanted.userId, wanted.purpose, wanted.triesMax],
  );
  return tried.rows[0] ?? null;
}
