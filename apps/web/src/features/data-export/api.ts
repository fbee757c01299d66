import {
  type DataExportOverview,
  dataExportOverviewSchema,
  dataExportSchema,
  dataExportUnlockSchema,
} from '@coffer/contracts/data-exports';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';

/** While an export is building, the page asks how far it got this often. */
const buildingPollMs = 3_000;

export const dataExportQueryOptions = queryOptions({
  queryKey: ['data-exports'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/data-exports', schema: dataExportOverviewSchema, signal }),
  refetchInterval: (query) =>
    query.state.data?.latest?.status === 'building' ? buildingPollMs : false,
});

/** Asks for an export; asking while one builds answers that one. */
export function useRequestDataExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest({ method: 'POST', path: '/api/v1/data-exports', schema: dataExportSchema }),
    onSuccess: (latest) => {
      queryClient.setQueryData<DataExportOverview>(dataExportQueryOptions.queryKey, { latest });
    },
  });
}

/** The password again: the answer is the address this session may download from for a while. */
export function useUnlockDataExport(exportId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { currentPassword: string }) =>
      apiRequest({
        method: 'POST',
        path: `/api/v1/data-exports/${exportId}/unlock`,
        body,
        schema: dataExportUnlockSchema,
      }),
    // Refused because the export expired meanwhile: the card then says so.
    onError: () => queryClient.invalidateQueries({ queryKey: dataExportQueryOptions.queryKey }),
  });
}
