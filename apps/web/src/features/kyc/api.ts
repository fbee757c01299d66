import type { rejectBodySchema } from '@coffer/contracts/admin';
import {
  type KycDocument,
  type KycIdType,
  type KycSubmission,
  type KycSubmissionBody,
  kycDocumentSchema,
  kycOverviewSchema,
  kycSubmissionSchema,
  type StaffKycSubmission,
  staffKycSubmissionListSchema,
  staffKycSubmissionSchema,
} from '@coffer/contracts/kyc';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod/mini';
import { apiRequest } from '../../lib/api-client.ts';
import { uploadWithProgress } from '../../lib/upload.ts';

// Keys start with 'kyc': a live `kyc` event refreshes them.
export const kycOverviewQueryOptions = queryOptions({
  queryKey: ['kyc', 'overview'],
  queryFn: ({ signal }) => apiRequest({ path: '/api/v1/kyc', schema: kycOverviewSchema, signal }),
});

/** Sends the document with upload progress (`onProgress` gets the fraction sent). */
export function uploadKycDocument(
  file: Blob,
  onProgress: (fraction: number) => void,
): Promise<KycDocument> {
  return uploadWithProgress({
    path: '/api/v1/kyc/documents',
    contentType: 'application/octet-stream',
    file,
    schema: kycDocumentSchema,
    onProgress,
  });
}

export function submitKyc(body: KycSubmissionBody): Promise<KycSubmission> {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/kyc/submissions',
    body,
    schema: kycSubmissionSchema,
  });
}

// Back-office queries start with 'admin', so every live event refreshes them for staff.

/** Submissions waiting for review, oldest first. */
export const kycQueueQueryOptions = queryOptions({
  queryKey: ['admin', 'queues', 'kyc'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/admin/queues/kyc', schema: staffKycSubmissionListSchema, signal }),
});

export function customerKycQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['admin', 'users', userId, 'kyc'],
    queryFn: ({ signal }) =>
      apiRequest({
        path: `/api/v1/admin/users/${encodeURIComponent(userId)}/kyc`,
        schema: staffKycSubmissionListSchema,
        signal,
      }),
  });
}

/** Where staff open a submission's document (each opening is audited). */
export function kycDocumentUrl(submissionId: string): string {
  return `/api/v1/admin/kyc/${encodeURIComponent(submissionId)}/document`;
}

export function approveKyc(submissionId: string): Promise<StaffKycSubmission> {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/admin/kyc/${encodeURIComponent(submissionId)}/approve`,
    body: {},
    schema: staffKycSubmissionSchema,
  });
}

export function rejectKyc(
  submissionId: string,
  body: z.input<typeof rejectBodySchema>,
): Promise<StaffKycSubmission> {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/admin/kyc/${encodeURIComponent(submissionId)}/reject`,
    body,
    schema: staffKycSubmissionSchema,
  });
}

/** The identity documents Coffer accepts, as the page's language names them. */
export const idTypeNames: Record<KycIdType, MessageDescriptor> = {
  passport: msg`Passport`,
  driver_license: msg`Driver's license`,
  national_id: msg`National ID card`,
};
