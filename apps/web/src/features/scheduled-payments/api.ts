import { payeeListSchema } from '@coffer/contracts/saved-payees';
import {
  type ScheduleBody,
  type ScheduledPayment,
  scheduledPaymentListSchema,
  scheduledPaymentSchema,
} from '@coffer/contracts/scheduled-payments';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';

export const scheduledPaymentsQueryOptions = queryOptions({
  queryKey: ['scheduled-payments'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/scheduled-payments', schema: scheduledPaymentListSchema, signal }),
});

/** The customer's saved payees, which a schedule pays (the same list the payees page reads). */
export const payeesForSchedulesQueryOptions = queryOptions({
  queryKey: ['payees'],
  queryFn: ({ signal }) => apiRequest({ path: '/api/v1/payees', schema: payeeListSchema, signal }),
});

function useInvalidateSchedules() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: scheduledPaymentsQueryOptions.queryKey });
}

/** Creates a schedule, or edits one (from its next occurrence on) when `scheduleId` is given. */
export function useSaveSchedule(scheduleId: string | null) {
  const invalidate = useInvalidateSchedules();
  return useMutation({
    mutationFn: (body: ScheduleBody): Promise<ScheduledPayment> =>
      apiRequest({
        method: scheduleId ? 'PATCH' : 'POST',
        path: scheduleId
          ? `/api/v1/scheduled-payments/${encodeURIComponent(scheduleId)}`
          : '/api/v1/scheduled-payments',
        body,
        schema: scheduledPaymentSchema,
      }),
    onSuccess: invalidate,
  });
}

export type ScheduleAction = 'pause' | 'resume' | 'cancel';

export function useChangeSchedule() {
  const invalidate = useInvalidateSchedules();
  return useMutation({
    mutationFn: ({ scheduleId, action }: { scheduleId: string; action: ScheduleAction }) =>
      apiRequest({
        method: 'POST',
        path: `/api/v1/scheduled-payments/${encodeURIComponent(scheduleId)}/${action}`,
        body: {},
        schema: scheduledPaymentSchema,
      }),
    onSuccess: invalidate,
  });
}
