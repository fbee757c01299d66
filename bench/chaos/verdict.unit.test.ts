// The harness must see a violation when there is one: each case fabricates one.
import { describe, expect, it } from 'vitest';
import { type DatabaseFacts, judge, type RequestRecord } from './verdict.ts';

const sound: DatabaseFacts = {
  effectCounts: new Map([
    ['acked-once', 1],
    ['refused', 0],
    ['unknown-done', 1],
    ['unknown-not-done', 0],
    ['repaid-once', 1],
  ]),
  expectedTotalMinor: 1_000n,
  actualTotalMinor: 1_000n,
  activeHoldsMinor: 400n,
  pendingPayoutsMinor: 250n,
  approvedCardAuthorizationsMinor: 150n,
  holdMismatches: 0,
  loanMismatches: 0,
  ledgerViolations: [],
};

const records: RequestRecord[] = [
  { kind: 'quick-pay', key: 'acked-once', attempts: ['unanswered', 'acked'] },
  { kind: 'payout', key: 'refused', attempts: ['refused'] },
  { kind: 'deposit', key: 'unknown-done', attempts: ['unanswered', 'refused'] },
  { kind: 'payout-send', key: 'unknown-not-done', attempts: ['unanswered'] },
  { kind: 'loan-repayment', key: 'repaid-once', attempts: ['acked'] },
];

describe('the chaos verdict', () => {
  it('finds nothing wrong when every effect matches its answers, and counts them', () => {
    expect(judge(records, sound)).toEqual({
      sent: 5,
      acked: 2,
      retried: 2,
      unknown: 2,
      violations: [],
    });
  });

  it('reports an acknowledged request whose effect exists twice', () => {
    const doubled = { ...sound, effectCounts: new Map([...sound.effectCounts, ['acked-once', 2]]) };
    expect(judge(records, doubled).violations).toEqual([
      'quick-pay acked-once: effect exists 2 times',
    ]);
  });

  it('reports a request that went unanswered and was applied twice', () => {
    const doubled = {
      ...sound,
      effectCounts: new Map([...sound.effectCounts, ['unknown-not-done', 2]]),
    };
    expect(judge(records, doubled).violations).toEqual([
      'payout-send unknown-not-done: effect exists 2 times',
    ]);
  });

  it('reports an acknowledged request without its effect', () => {
    const lost = { ...sound, effectCounts: new Map([...sound.effectCounts, ['acked-once', 0]]) };
    expect(judge(records, lost).violations).toEqual([
      'quick-pay acked-once: acknowledged but its effect is missing',
    ]);
  });

  it('reports a loan repayment applied twice', () => {
    const doubled = {
      ...sound,
      effectCounts: new Map([...sound.effectCounts, ['repaid-once', 2]]),
    };
    expect(judge(records, doubled).violations).toEqual([
      'loan-repayment repaid-once: effect exists 2 times',
    ]);
  });

  it('reports an effect for a key whose every attempt was refused', () => {
    const applied = { ...sound, effectCounts: new Map([...sound.effectCounts, ['refused', 1]]) };
    expect(judge(records, applied).violations).toEqual([
      'payout refused: every attempt was refused but its effect exists',
    ]);
  });

  it('reports money not conserved, holds unlike what they hold for, loans unlike their repayments, and broken books', () => {
    const broken = {
      ...sound,
      actualTotalMinor: 1_001n,
      // The payouts' share only: a card authorization's hold is missing.
      activeHoldsMinor: 250n,
      holdMismatches: 1,
      loanMismatches: 2,
      ledgerViolations: ['entry does not sum to zero in its currency: e1 (USD 5)'],
    };
    expect(judge(records, broken).violations).toEqual([
      'money not conserved: wallets hold 1001, expected 1000',
      'holds 250 differ from pending payouts 250 and approved card authorizations 150',
      '1 payouts or card authorizations disagree with their hold',
      '2 loans owe other than their amount less what was repaid',
      'ledger: entry does not sum to zero in its currency: e1 (USD 5)',
    ]);
  });
});
