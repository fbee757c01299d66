import {
  assessmentRequestListSchema,
  type EligibilityBody,
  type Loan,
  type LoanApplicationBody,
  type LoanOverview,
  loanListSchema,
  loanOverviewSchema,
  loanSchema,
} from '@coffer/contracts/loans';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';

/** Live `loans` events make every query under this root stale. */
export const loansQueryRoot = ['loans'] as const;

export const loanOverviewQueryOptions = queryOptions({
  queryKey: [...loansQueryRoot, 'overview'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/loans', schema: loanOverviewSchema, signal }),
});

export function applyForLoan(body: LoanApplicationBody): Promise<Loan> {
  return apiRequest({ method: 'POST', path: '/api/v1/loans', body, schema: loanSchema });
}

/** "Ask for an assessment": answers with the page's facts, the request among them. */
export function requestAssessment(): Promise<LoanOverview> {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/loans/assessment-request',
    schema: loanOverviewSchema,
  });
}

/** A repayment moves money: it carries the confirmation's Idempotency-Key. */
export function repayLoan(
  loanId: string,
  body: { amount: string; stepUpCode?: string },
  idempotencyKey: string,
): Promise<Loan> {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/loans/${encodeURIComponent(loanId)}/repayments`,
    body,
    headers: { 'idempotency-key': idempotencyKey },
    schema: loanSchema,
  });
}

export function switchAutoRepay(loanId: string, isAutoRepayOn: boolean): Promise<Loan> {
  return apiRequest({
    method: 'PUT',
    path: `/api/v1/loans/${encodeURIComponent(loanId)}/auto-repay`,
    body: { isAutoRepayOn },
    schema: loanSchema,
  });
}

// Back-office queries start with 'admin', so every live event refreshes them for staff.

export const loanQueueQueryOptions = queryOptions({
  queryKey: ['admin', 'queues', 'loans'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/admin/queues/loans', schema: loanListSchema, signal }),
});

export const assessmentQueueQueryOptions = queryOptions({
  queryKey: ['admin', 'queues', 'loans', 'assessments'],
  queryFn: ({ signal }) =>
    apiRequest({
      path: '/api/v1/admin/queues/loans/assessments',
      schema: assessmentRequestListSchema,
      signal,
    }),
});

export const toDisburseQueueQueryOptions = queryOptions({
  queryKey: ['admin', 'queues', 'loans', 'to-disburse'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/admin/queues/loans/to-disburse', schema: loanListSchema, signal }),
});

export function customerLoansQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['admin', 'users', userId, 'loans'],
    queryFn: ({ signal }) =>
      apiRequest({
        path: `/api/v1/admin/users/${encodeURIComponent(userId)}/loans`,
        schema: loanOverviewSchema,
        signal,
      }),
  });
}

export function setEligibility(userId: string, body: EligibilityBody): Promise<LoanOverview> {
  return apiRequest({
    method: 'PUT',
    path: `/api/v1/admin/users/${encodeURIComponent(userId)}/loan-eligibility`,
    body,
    schema: loanOverviewSchema,
  });
}

export function declineAssessment(userId: string, body: { reason: string }): Promise<LoanOverview> {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/admin/users/${encodeURIComponent(userId)}/loan-assessment/decline`,
    body,
    schema: loanOverviewSchema,
  });
}

export function decideLoan(
  loanId: string,
  decision: 'approve' | 'decline',
  body: { reason?: string },
): Promise<Loan> {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/admin/loans/${encodeURIComponent(loanId)}/${decision}`,
    body,
    schema: loanSchema,
  });
}

export function disburseLoan(
  loanId: string,
  body: { reason: string },
  idempotencyKey: string,
): Promise<Loan> {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/admin/loans/${encodeURIComponent(loanId)}/disburse`,
    body,
    headers: { 'idempotency-key': idempotencyKey },
    schema: loanSchema,
  });
}
