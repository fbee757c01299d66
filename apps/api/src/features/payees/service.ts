import { toCurrencyCode } from '@coffer/contracts/currencies';
import {
  type AddPayeeBody,
  describePayeeTarget,
  type Payee,
  type PayeeList,
  type PayeeTarget,
  payeesMax,
} from '@coffer/contracts/payees';
import { invalidCryptoAddressMessage } from '@coffer/contracts/payouts';
import type { Queryable } from '../../db/client.ts';
import type { PaymentToConfirm } from '../../money-out/step-up-prechecks.ts';
import { type StepUpProof, spendStepUp } from '../../money-out/step-up-spend.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { StoredResponse } from '../../platform/idempotency.ts';
import { newId } from '../../platform/ids.ts';
import { notify } from '../../platform/notifications.ts';
import type { SessionContext } from '../../platform/sessions.ts';
import { isValidCryptoAddress } from '../payouts/crypto-address.ts';
import { payeeKeyOf } from '../payouts/service.ts';
import { checkStepUp } from '../step-up/service.ts';
import { checkRecipientCounted, recipientKeyOf, type TransferDeps } from '../transfers/service.ts';
import {
  countPayees,
  deletePayeeOf,
  insertPayee,
  isPayeeSaved,
  lockPayeesOf,
  type PayeeRow,
  payeesOfUser,
  renamePayeeOf,
} from './queries.ts';

export type PayeeDeps = TransferDeps;

function walletCurrencyOf(session: SessionContext) {
  if (!session.wallet) throw new AppError('not_found', { message: 'You have no wallet.' });
  return toCurrencyCode(session.wallet.currency);
}

/**
 * The target as it is kept: a Coffer recipient as Quick Pay looks it up (an account
 * number, or the email lower-cased); a crypto address with its checksum checked, as a
 * withdrawal's is (the browser checks only its form).
 */
function normalisedTarget(target: PayeeTarget): PayeeTarget {
  if (target.kind === 'coffer') {
    const key = recipientKeyOf(target.recipient);
    return { kind: 'coffer', recipient: key.accountNumber ?? key.email ?? target.recipient };
  }
  if (
    target.kind === 'payout' &&
    target.destination.method === 'crypto' &&
    !isValidCryptoAddress(target.destination.coin, target.destination.address)
  ) {
    throw new AppError('validation_failed', {
      fields: {
        'target.destination.address': invalidCryptoAddressMessage(target.destination.coin),
      },
    });
  }
  return target;
}

/** What decides where a payee's money goes; a customer saves each one once. */
function targetKeyOf(target: PayeeTarget): string {
  switch (target.kind) {
    case 'coffer':
      return `coffer:${target.recipient}`;
    case 'bill':
      return `bill:${target.category}:${target.billerReference.toUpperCase()}`;
    case 'payout':
      return `payout:${payeeKeyOf(target.destination)}`;
  }
}

/**
 * Everything that can refuse a new payee without a step-up code, before one is sent or
 * checked: the limit, a Coffer recipient exactly as Quick Pay checks it (a refused one
 * spends one of the customer's look-ups and gets Quick Pay's one answer), and a payee
 * already saved. Answers what the code will confirm: no amount, the target's key.
 */
export async function precheckPayee(
  deps: PayeeDeps,
  session: SessionContext,
  typed: PayeeTarget,
): Promise<{ target: PayeeTarget; toConfirm: PaymentToConfirm }> {
  const currency = walletCurrencyOf(session);
  const target = normalisedTarget(typed);
  if ((await countPayees(deps.db, session.userId)) >= payeesMax) {
    throw new AppError('payee_limit_reached');
  }
  if (target.kind === 'coffer') {
    await checkRecipientCounted(deps, { userId: session.userId, currency }, target.recipient);
  }
  const targetKey = targetKeyOf(target);
  if (await isPayeeSaved(deps.db, session.userId, targetKey)) throw new AppError('payee_exists');
  return {
    target,
    toConfirm: {
      amountMinor: 0n,
      currency,
      payee: describePayeeTarget(target),
      payeeKey: targetKey,
    },
  };
}

export type AddPayeePlan = {
  userId: string;
  nickname: string;
  target: PayeeTarget;
  targetKey: string;
  proof: StepUpProof;
  ipAddress: string;
};

/** A new payee always needs the step-up code, tied to its target (ADR 043). */
export async function planAddPayee(
  deps: PayeeDeps,
  session: SessionContext,
  body: AddPayeeBody,
  ipAddress: string,
): Promise<AddPayeePlan> {
  const { target, toConfirm } = await precheckPayee(deps, session, body.target);
  const proof = await checkStepUp(
    deps,
    session.userId,
    'payee',
    body.stepUpCode,
    toConfirm,
    body.stepUpPasskey,
  );
  return {
    userId: session.userId,
    nickname: body.nickname,
    target,
    targetKey: toConfirm.payeeKey,
    proof,
    ipAddress,
  };
}

function toPayee(row: PayeeRow): Payee {
  return {
    id: row.id,
    nickname: row.nickname,
    target: row.target,
    createdAt: row.created_at.toISOString(),
  };
}

const emailTime = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'UTC',
});

function payeeAddedEmail(
  institutionName: string,
  payee: { nickname: string; described: string; at: Date },
) {
  return {
    subject: `A new payee was added to your ${institutionName} account`,
    text: [
      `A new payee was added to your ${institutionName} account on ${emailTime.format(payee.at)} UTC:`,
      `"${payee.nickname}", ${payee.described}.`,
      '',
      'If this was you, there is nothing to do.',
      'If it was not you, delete the payee on the Payees page, change your password and contact support at once: someone else may be signed in to your account.',
    ].join('\n'),
  };
}

/**
 * Saves the payee in the idempotent request's transaction: under the customer's lock the
 * limit is counted again, a twin is refused by the unique key, and the code is spent last,
 * so it stays usable when the add is refused. The security email goes with it.
 */
export async function addPayee(
  deps: PayeeDeps,
  tx: Queryable,
  plan: AddPayeePlan,
): Promise<StoredResponse> {
  await lockPayeesOf(tx, plan.userId);
  if ((await countPayees(tx, plan.userId)) >= payeesMax) throw new AppError('payee_limit_reached');
  const row = await insertPayee(tx, {
    id: newId(),
    user_id: plan.userId,
    nickname: plan.nickname,
    kind: plan.target.kind,
    target: plan.target,
    target_key: plan.targetKey,
  });
  if (!row) throw new AppError('payee_exists');
  await spendStepUp(tx, plan.proof);
  const described = describePayeeTarget(plan.target);
  await recordAudit(tx, {
    action: 'payee_added',
    actorUserId: plan.userId,
    subjectUserId: plan.userId,
    after: { payeeId: row.id, nickname: row.nickname, payee: described },
    ipAddress: plan.ipAddress,
  });
  await notify(
    tx,
    {
      userId: plan.userId,
      kind: 'payee_added',
      text: `A new payee was added to your account: ${row.nickname} (${described}). If this was not you, delete it and contact support.`,
      link: '/payees',
      email: payeeAddedEmail(deps.site.institutionName, {
        nickname: row.nickname,
        described,
        at: row.created_at,
      }),
    },
    deps.config,
  );
  return { status: 201, body: toPayee(row) };
}

export async function payeesOf(deps: PayeeDeps, userId: string): Promise<PayeeList> {
  return { items: (await payeesOfUser(deps.db, userId)).map(toPayee) };
}

/** Another customer's payee, or none, answers 404 alike. */
export async function renamePayee(
  deps: PayeeDeps,
  where: { userId: string; payeeId: string; ipAddress: string },
  nickname: string,
): Promise<Payee> {
  return deps.db.transaction(async (tx) => {
    const renamed = await renamePayeeOf(tx, where, nickname);
    if (!renamed) throw new AppError('not_found');
    await recordAudit(tx, {
      action: 'payee_renamed',
      actorUserId: where.userId,
      subjectUserId: where.userId,
      before: { payeeId: where.payeeId, nickname: renamed.before },
      after: { payeeId: where.payeeId, nickname },
      ipAddress: where.ipAddress,
    });
    return toPayee(renamed.row);
  });
}

export async function deletePayee(
  deps: PayeeDeps,
  where: { userId: string; payeeId: string; ipAddress: string },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const deleted = await deletePayeeOf(tx, where);
    if (!deleted) throw new AppError('not_found');
    await recordAudit(tx, {
      action: 'payee_deleted',
      actorUserId: where.userId,
      subjectUserId: where.userId,
      before: {
        payeeId: deleted.id,
        nickname: deleted.nickname,
        payee: describePayeeTarget(deleted.target),
      },
      ipAddress: where.ipAddress,
    });
  });
}
