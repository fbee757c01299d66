// The landing page rendered on the server (docs/decisions/010): the API imports this
// module's build (dist/server/landing-server.js) and answers GET / with the page's HTML.
// The components are the app's own; only the three queries the page makes are answered
// up front, with what the API itself would answer.
import type { Me } from '@coffer/contracts/auth';
import type { HealthResponse } from '@coffer/contracts/health';
import { directionOf, type Language } from '@coffer/contracts/languages';
import type { SiteAnswer } from '@coffer/contracts/site';
import { I18nProvider, useLingui } from '@lingui/react';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { mantineSettings } from './app/providers.tsx';
import { PublicFrame } from './app/public-layout.tsx';
import { createQueryClient } from './app/query-client.ts';
import { TopBarButton } from './components/deferred-dropdown.tsx';
import { siteMenuButton } from './components/site-links.tsx';
import { KeptSiteMenu } from './components/site-menu.tsx';
import { LandingPage } from './features/landing/pages/landing-page.tsx';
import { escapeHtml } from './lib/escape-html.ts';
import { healthQueryOptions } from './lib/health.ts';
import { renderSynchronouslyIn } from './lib/i18n.ts';
import { meQueryKey } from './lib/session.ts';
import { siteQueryOptions } from './lib/site.ts';
import { i18nOf } from './server-i18n.ts';

/** The answers of GET /public/site, /health and /auth/session for this request. */
export type LandingPageData = { site: SiteAnswer; health: HealthResponse; me: Me | null };

/** Where landing.html (the build's template for this page) takes the rendered parts. */
const titleSlot = '<!--landing-title-->';
const pageSlot = '<!--landing-page-->';

/** The phone's site menu, kept in the page for its small script to open. */
function LandingSiteMenu() {
  const { i18n } = useLingui();
  return (
    <KeptSiteMenu
      target={<TopBarButton label={i18n._(siteMenuButton.label)} icon={siteMenuButton.icon} />}
    />
  );
}

/** The whole document in `language`: the template with the page's title and markup filled in. */
export function renderLandingPage(
  template: string,
  data: LandingPageData,
  language: Language,
): string {
  if (!template.includes(titleSlot) || !template.includes(pageSlot)) {
    throw new Error('landing.html must contain the title and page slots');
  }
  const queryClient = createQueryClient();
  queryClient.setQueryData(siteQueryOptions.queryKey, data.site);
  queryClient.setQueryData(healthQueryOptions.queryKey, data.health);
  queryClient.setQueryData(meQueryKey, data.me);
  const pageHtml = renderSynchronouslyIn(language, () =>
    renderToString(
      <QueryClientProvider client={queryClient}>
        <I18nProvider i18n={i18nOf(language)}>
          <DirectionProvider initialDirection={directionOf(language)} detectDirection={false}>
            <MantineProvider {...mantineSettings}>
              <StaticRouter location="/">
                <PublicFrame siteMenu={<LandingSiteMenu />}>
                  <LandingPage />
                </PublicFrame>
              </StaticRouter>
            </MantineProvider>
          </DirectionProvider>
        </I18nProvider>
      </QueryClientProvider>,
    ),
  );
  return template
    .replace(/<html lang="[^"]*"/, `<html lang="${language}" dir="${directionOf(language)}"`)
    .replace(titleSlot, () => escapeHtml(data.site.institutionName))
    .replace(pageSlot, () => pageHtml);
}
