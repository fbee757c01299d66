import { lazy, type ReactNode, Suspense } from 'react';
import { PageLoading } from '../components/page-loading.tsx';

const PublicFrame = lazy(async () => ({
  default: (await import('./public-layout.tsx')).PublicFrame,
}));

/**
 * The public frame around a page shown in an unusual place (an error, a staff page asked
 * for by a customer). Loaded on demand: its header's menu brings Floating UI, which
 * signed-in pages would otherwise all download.
 */
export function DeferredPublicFrame({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<PageLoading />}>
      <PublicFrame>{children}</PublicFrame>
    </Suspense>
  );
}
