import { lazy, Suspense } from 'react';
import { LoadingState } from '../../../components/query-states.tsx';

const LoadedCustomerKycTab = lazy(async () => ({
  default: (await import('./customer-kyc-tab.tsx')).CustomerKycTab,
}));

/**
 * The back office's KYC tab, loaded when it is shown: its submissions table, decision
 * dialog and document viewer would otherwise come with this feature's public entry to
 * every page that imports it, the customer's dashboard included (AccountLevelNotice).
 */
export function CustomerKycTab({ userId }: { userId: string }) {
  return (
    <Suspense fallback={<LoadingState label="Loading verifications" />}>
      <LoadedCustomerKycTab userId={userId} />
    </Suspense>
  );
}
