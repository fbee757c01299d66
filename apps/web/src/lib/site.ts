import { type SiteAnswer, siteAnswerSchema } from '@coffer/contracts/site';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';

/** What the operator configured about their institution (GET /public/site). */
export const siteQueryOptions = queryOptions({
  queryKey: ['site'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/public/site', schema: siteAnswerSchema, signal }),
  staleTime: 10 * 60_000,
});

/** The operator's name for their institution; "Coffer" until the server has said. */
export const fallbackInstitutionName = 'Coffer';

/**
 * Whether the operator named their institution. Without a name the pages speak of Coffer,
 * the software, and say nothing about who runs it ("Coffer runs on Coffer").
 */
export function isOperatorNamed(institutionName: string): boolean {
  return institutionName !== fallbackInstitutionName;
}

export function useSite(): SiteAnswer | undefined {
  return useQuery(siteQueryOptions).data;
}

export function useInstitutionName(): string {
  return useSite()?.institutionName ?? fallbackInstitutionName;
}
