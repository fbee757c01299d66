// Pages of the app rendered on the server for a signed-in user (docs/decisions/011, 027):
// the API imports this module's build (dist/server/app-server.js) and answers a GET of
// each page in `serverRenderedPages` (app/page-data.ts) with its HTML, painted before the
// app's JavaScript has loaded. The
// app then hydrates it (src/main.tsx, docs/decisions/021), from the answers embedded here.
import { AsyncLocalStorage } from 'node:async_hooks';
import { isStaffRole, type Me } from '@coffer/contracts/auth';
import { directionOf, intlLocaleOf, type Language } from '@coffer/contracts/languages';
import type { QueryClient } from '@tanstack/react-query';
import { prerender } from 'react-dom/static';
import {
  createStaticHandler,
  createStaticRouter,
  type StaticHandlerContext,
  StaticRouterProvider,
} from 'react-router';
import { type AppPage, appPages as listAppPages } from './app/page-budgets.ts';
import {
  prefetchEveryPageData,
  type ServerRenderedPage,
  serverRenderedPageAt,
  serverRenderedPages,
} from './app/page-data.ts';
import { Providers } from './app/providers.tsx';
import { createQueryClient } from './app/query-client.ts';
import { appRoutes, type PageHandle } from './app/router.tsx';
import { type ApiAnswer, setAnswerSource } from './lib/api-client.ts';
import {
  type BuildManifest,
  entryDependenciesInEvaluationOrder,
  entryManifestKey,
  firstLoadChunks,
} from './lib/build-manifest.ts';
import {
  type DateRegion,
  dateRegionName,
  setDateRegionSource,
  timeZoneCookieName,
} from './lib/dates.ts';
import { escapeHtml } from './lib/escape-html.ts';
import { firstPageWordsUrls, setLanguageSource } from './lib/i18n.ts';
import {
  dateRegionAttribute,
  inputBeforeStartAttribute,
  type PrerenderedAnswers,
  prerenderedAnswersElement,
  serverRenderedAttribute,
} from './lib/prerendered-answers.ts';
import { RequestFactsContext } from './lib/request-facts.ts';
import { meQueryKey, mustSetUpTwoFactor } from './lib/session.ts';
import { siteQueryOptions } from './lib/site.ts';
import { i18nOf } from './server-i18n.ts';

export type AppPageRequest = {
  /** The address asked for, path and query: its path matches one of `serverRenderedPaths`. */
  url: string;
  /** Answers a GET of the API as the browser's own request would be answered. */
  callApi: (apiPath: string) => Promise<ApiAnswer>;
  cookies: ReadonlyMap<string, string>;
  /** The language the page is written in: the visitor's choice, else the browser's. */
  language: Language;
};

/** Where index.html (the app's template) takes the rendered parts; the head's end is one. */
const headEnd = '</head>';
const pageSlot = '<!--app-page-->';
/** The app's root element, marked as the server's until the app has replaced its content. */
const rootElementTag = '<div id="root">';
const answersSlot = '<!--app-answers-->';
/** The app's module script and module preloads as Vite writes them into index.html. */
const moduleTagsPattern = /<(script type="module"|link rel="modulepreload")[^>]*>(<\/script>)?\s*/g;

export const serverRenderedPaths: readonly string[] = Object.keys(serverRenderedPages);

/** The patterns rendered for a visitor, who may come without any cookie at all. */
export const visitorPagePaths: readonly string[] = Object.entries(serverRenderedPages)
  .filter(([, page]) => page.audience === 'visitor')
  .map(([pattern]) => pattern);

/** Every page of the app with its route modules: the build weighs each (check-page-budgets.ts). */
export const appPages: readonly AppPage[] = listAppPages(appRoutes(createQueryClient()));

/** What a page's render reads of its own request, wherever the render has got to. */
type RenderRequest = {
  callApi: (apiPath: string) => Promise<ApiAnswer>;
  dateRegion: DateRegion;
  language: Language;
};

// Renders wait for answers and code, so several run at once: the app's queries (through
// `apiRequest`, which asks this source first) and its dates find their own request here.
const renderRequest = new AsyncLocalStorage<RenderRequest>();
function currentRenderRequest(): RenderRequest {
  const current = renderRequest.getStore();
  if (!current) throw new Error('apiRequest or a date on the server outside a page render');
  return current;
}
setAnswerSource((apiPath) => currentRenderRequest().callApi(apiPath));
setDateRegionSource(() => currentRenderRequest().dateRegion);
setLanguageSource(() => currentRenderRequest().language);

/**
 * The locale and time zone the page shows dates in: the page's language, and the time zone
 * the app keeps in a cookie (the server's default when it has none or one it does not know).
 */
function dateRegionOf(request: AppPageRequest): DateRegion {
  const timeZone = request.cookies.get(timeZoneCookieName);
  const isKnownZone = (zone: string) => {
    try {
      new Intl.DateTimeFormat(undefined, { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  };
  return {
    locale: intlLocaleOf(request.language),
    timeZone: timeZone && isKnownZone(timeZone) ? timeZone : undefined,
  };
}

/** The modules of the matched routes' own code (router.tsx `lazyPage`), outermost first. */
function pageModulesOf(matches: readonly { route: { handle?: unknown } }[]): string[] {
  return matches.flatMap(({ route }) => (route.handle as PageHandle | undefined)?.pageModule ?? []);
}

/**
 * The styles and code a page needs: its first load's chunks, from the build's manifest, and
 * its words in `language` (lib/i18n.ts `firstPageWordsUrls`).
 */
function pageAssets(manifest: BuildManifest, routeModules: readonly string[], language: Language) {
  const chunks = firstLoadChunks(manifest, routeModules);
  const entry = manifest[entryManifestKey];
  if (!entry) throw new Error(`the build's manifest has no ${entryManifestKey}`);
  return {
    entryUrl: `/${entry.file}`,
    evaluateFirstUrls: entryDependenciesInEvaluationOrder(manifest).map((file) => `/${file}`),
    moduleUrls: [
      ...chunks.map((chunk) => `/${chunk.file}`),
      ...firstPageWordsUrls(language, routeModules),
    ],
    stylesheetUrls: [...new Set(chunks.flatMap((chunk) => chunk.css ?? []))].map(
      (file) => `/${file}`,
    ),
  };
}

/**
 * The head's end for a server-rendered page: every stylesheet the page's routes need,
 * before the first paint, and public/app-start.js, which starts the app once the page has
 * painted and only then fetches its code, all of it at once (the template's own module
 * script and preloads are taken out). A script fetched before the first paint would count
 * as holding it up, and its evaluation would.
 */
function pageHeadEnd(template: string, assets: ReturnType<typeof pageAssets>): string {
  const stylesheets = assets.stylesheetUrls
    .filter((url) => !template.includes(`href="${url}"`))
    .map((url) => `<link rel="stylesheet" href="${url}">`);
  const preloads = assets.moduleUrls.filter((url) => url !== assets.entryUrl).join(' ');
  const evaluateFirst = assets.evaluateFirstUrls.join(' ');
  const appStart = `<script src="/app-start.js" data-app-entry="${assets.entryUrl}" data-app-modules="${preloads}" data-app-evaluate-first="${evaluateFirst}" defer></script>`;
  return `${stylesheets.join('')}${appStart}${headEnd}`;
}

/**
 * Whether `me` (null: a visitor) is whom the page is rendered for. Staff who must set up
 * two-factor first are not, nor is anyone who must change their password or accept new
 * terms first: the app sends them there instead.
 */
function isAudience(me: Me | null | undefined, page: ServerRenderedPage): boolean {
  // A signed-in visitor of sign-in is sent on by the app; an unknown session is the app's too.
  if (page.audience === 'visitor') return me === null;
  if (!me || me.mustChangePassword || me.mustAcceptTerms) return false;
  if (isStaffRole(me.role)) return page.audience === 'staff' && !mustSetUpTwoFactor(me);
  return page.audience === 'customer';
}

/**
 * The page's markup once everything in it is there: code a route or the side menu loads on
 * demand included, so it is the very markup the app's first render draws (a Suspense
 * boundary left waiting would show its fallback here and make React render it anew in the
 * browser). The app hydrates it (src/main.tsx), so it renders the same providers; the
 * router's state needs no embedding, the app loads the same routes before hydrating. A
 * part that failed to render fails the whole page: the app then renders it instead.
 */
async function renderComplete(
  queryClient: QueryClient,
  routes: ReturnType<typeof createStaticHandler>['dataRoutes'],
  context: StaticHandlerContext,
  request: AppPageRequest,
): Promise<string> {
  const renderErrors: unknown[] = [];
  const { prelude } = await prerender(
    <Providers queryClient={queryClient} i18n={i18nOf(request.language)}>
      <RequestFactsContext value={{ cookies: request.cookies }}>
        <StaticRouterProvider
          router={createStaticRouter(routes, context)}
          context={context}
          hydrate={false}
        />
      </RequestFactsContext>
    </Providers>,
    {
      onError: (error) => void renderErrors.push(error),
      // Every boundary inline, where it belongs: React otherwise moves large ones to the
      // document's end with an inline script to put them in place, which the page's
      // Content-Security-Policy (script-src 'self') refuses to run.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
    },
  );
  const html = await new Response(prelude).text();
  if (renderErrors.length > 0) throw new AggregateError(renderErrors, 'a part did not render');
  return html;
}

/**
 * The whole document for a signed-in user's page, or null when the app should render it
 * instead: an address this module does not render as sent (percent-escapes), a visitor,
 * someone the page is not for (a customer asking for a staff page), or an API answer
 * other than 200 (the app shows its own sign-in redirect, error or retry
 * for those).
 */
export async function renderAppPage(
  request: AppPageRequest,
  build: { template: string; manifest: BuildManifest },
): Promise<string | null> {
  const url = new URL(request.url, 'http://coffer.invalid');
  const rendered = serverRenderedPageAt(url.pathname);
  // The server picked this page's route after decoding percent-escapes (`/%64ashboard`);
  // the app's router reads the address as sent, and so does this render: whatever the app
  // makes of that spelling, it makes it itself. Not an error: anyone can send one.
  if (!rendered) return null;
  const { page, params } = rendered;
  for (const slot of [headEnd, rootElementTag, pageSlot, answersSlot]) {
    if (!build.template.includes(slot)) throw new Error(`index.html must contain ${slot}`);
  }
  const answers: PrerenderedAnswers = {};
  const callApi = async (apiPath: string) => {
    const answer = await request.callApi(apiPath);
    answers[apiPath] = answer;
    return answer;
  };
  const dateRegion = dateRegionOf(request);
  const queryClient = createQueryClient();
  const handler = createStaticHandler(appRoutes(queryClient));
  const { language } = request;
  const markup = await renderRequest.run({ callApi, dateRegion, language }, async () => {
    // Only once the session says whose page it is: a customer's page asks nothing of
    // the staff API for staff, and the other way round.
    await prefetchEveryPageData(queryClient);
    if (!isAudience(queryClient.getQueryData(meQueryKey), page)) return null;
    await page.prefetch(queryClient, url, params);
    // Loads the matched routes' code and runs their loaders; a redirect (a Response) or a
    // route that failed (`errors`: its code did not load) is the app's to show.
    const context = await handler.query(new Request(url));
    const isEveryAnswerOk = Object.values(answers).every((answer) => answer.status === 200);
    if (context instanceof Response || context.errors || !isEveryAnswerOk) return null;
    return {
      html: await renderComplete(queryClient, handler.dataRoutes, context, request),
      matches: context.matches,
    };
  });
  if (markup === null) return null;
  const assets = pageAssets(build.manifest, pageModulesOf(markup.matches), language);
  const institutionName = queryClient.getQueryData(siteQueryOptions.queryKey)?.institutionName;
  return (
    build.template
      .replace(/<html lang="[^"]*"/, `<html lang="${language}" dir="${directionOf(language)}"`)
      // The template preloads the answers every page needs; this page carries them.
      .replaceAll(/<link rel="preload" href="\/api\/[^"]*"[^>]*>\s*/g, '')
      .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(institutionName ?? '')}</title>`)
      .replaceAll(moduleTagsPattern, '')
      .replace(headEnd, () => pageHeadEnd(build.template, assets))
      .replace(
        rootElementTag,
        () =>
          `<div id="root" ${serverRenderedAttribute} ${dateRegionAttribute}="${escapeHtml(dateRegionName(dateRegion))}"${page.audience === 'visitor' ? ` ${inputBeforeStartAttribute}` : ''}>`,
      )
      .replace(pageSlot, () => markup.html)
      .replace(answersSlot, () => prerenderedAnswersElement(answers))
  );
}
