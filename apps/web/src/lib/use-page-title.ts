import { useDocumentTitle } from '@mantine/hooks';
import { useInstitutionName } from './site.ts';

/** Sets the browser tab's title for the page being shown, e.g. "Dashboard · Coffer". */
export function usePageTitle(pageTitle: string | null): void {
  const institutionName = useInstitutionName();
  useDocumentTitle(pageTitle ? `${pageTitle} · ${institutionName}` : institutionName);
}
