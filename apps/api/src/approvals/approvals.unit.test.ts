// The approvals registry without a database: what a feature registers, and that a decision
// the rules refuse never reaches the feature. The rules against real rows are in
// approvals.test.ts and approvals-concurrency.pg.test.ts.
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db/client.ts';
import type { StaffAction } from '../platform/access.ts';
import { AssertionError } from '../platform/assert.ts';
import { type ApprovalCallbacks, Approvals } from './approvals.ts';

const maker = '00000000-0000-7000-8000-000000000001';
const subject = '00000000-0000-7000-8000-000000000002';
const other = '00000000-0000-7000-8000-000000000003';

/** No statement runs on the paths below; any that did would fail the test. */
const noDatabase: Queryable = {
  query: () => Promise.reject(new Error('no statement expected')),
};

function actionBy(userId: string): StaffAction {
  return {
    staff: {
      sessionId: 'session',
      userId,
      role: 'admin',
      isEmailVerified: true,
      hasTotp: true,
      mustChangePassword: false,
      acceptedTermsVersion: null,
      wallet: null,
    },
    ipAddress: '127.0.0.1',
    reason: '',
  };
}

function moneyRequests(decided: string[]): ApprovalCallbacks<'money_request'> {
  return {
    lockPending: async () => ({ makerUserId: maker, subjectUserId: subject }),
    onDecided: async (_tx, { id, decision }) => {
      decided.push(`${decision} ${id}`);
    },
  };
}

describe('the approvals registry', () => {
  it('names the kinds nobody registered, so the app refuses to start without them', () => {
    const approvals = new Approvals();
    expect(approvals.missing()).toEqual([
      'money_request',
      'loan_disbursement',
      'account_reopening',
    ]);
    approvals.register('money_request', moneyRequests([]));
    expect(approvals.missing()).toEqual(['loan_disbursement', 'account_reopening']);
  });

  it('refuses a second registration of a kind', () => {
    const approvals = new Approvals();
    approvals.register('money_request', moneyRequests([]));
    expect(() => approvals.register('money_request', moneyRequests([]))).toThrow(AssertionError);
  });

  it('lets only the maker cancel, and calls the feature back only then', async () => {
    const decided: string[] = [];
    const approvals = new Approvals();
    approvals.register('money_request', moneyRequests(decided));
    const cancel = (userId: string) =>
      approvals.decide('money_request', noDatabase, {
        id: 'r1',
        decision: 'cancel',
        action: actionBy(userId),
        context: {},
      });
    await expect(cancel(other)).rejects.toMatchObject({ code: 'not_maker' });
    expect(decided).toEqual([]);
    await cancel(maker);
    expect(decided).toEqual(['cancel r1']);
  });

  it('refuses the maker approving or rejecting her own posting before any look-up', async () => {
    const decided: string[] = [];
    const approvals = new Approvals();
    approvals.register('money_request', moneyRequests(decided));
    for (const decision of ['approve', 'reject'] as const) {
      await expect(
        approvals.decide('money_request', noDatabase, {
          id: 'r1',
          decision,
          action: actionBy(maker),
          context: {},
        }),
      ).rejects.toMatchObject({ code: 'own_request' });
    }
    expect(decided).toEqual([]);
  });
});
