import { useDocumentTitle } from '@mantine/hooks';

export const brandName = 'Coffer';

/** Sets the browser tab's title for the page being shown, e.g. "Dashboard · Coffer". */
export function usePageTitle(pageTitle: string | null): void {
  useDocumentTitle(pageTitle ? `${pageTitle} · ${brandName}` : brandName);
}
