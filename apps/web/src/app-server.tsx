// Pages of the app rendered on the server for a signed-in customer (docs/decisions/011):
// the API imports this module's build (dist/server/app-server.js) and answers GET
// /dashboard with the page's HTML, painted before the app's JavaScript has loaded. The
// app then hydrates it (src/main.tsx, docs/decisions/021), from the answers embedded here.
import { AsyncLocalStorage } from 'node:async_hooks';
import { renderToString } from 'react-dom/server';
import { type AppPage, appPages as listAppPages } from './app/page-budgets.ts';
import { prefetchEveryPageData, serverRenderedPages } from './app/page-data.ts';
import { Providers } from './app/providers.tsx';
import { createQueryClient } from './app/query-client.ts';
import { appRoutes, type PageHandle } from './app/router.tsx';
import { type ApiAnswer, setAnswerSource } from './lib/api-client.ts';
import { type BuildManifest, entryManifestKey, firstLoadChunks } from './lib/build-manifest.ts';
import { type DateRegion, dateRegionName, inDateRegion, timeZoneCookieName } from './lib/dates.ts';
import { escapeHtml } from './lib/escape-html.ts';
import {
  dateRegionAttribute,
  type PrerenderedAnswers,
  prerenderedAnswersElement,
  serverRenderedAttribute,
} from './lib/prerendered-answers.ts';
import { RequestFactsContext } from './lib/request-facts.ts';
import { createStaticRouter, StaticRouterProvider } from './lib/router/index.ts';
import { meQueryKey } from './lib/session.ts';
import { siteQueryOptions } from './lib/site.ts';

export type AppPageRequest = {
  /** The page's path, one of `serverRenderedPaths`. */
  path: string;
  /** Answers a GET of the API as the browser's own request would be answered. */
  callApi: (apiPath: string) => Promise<ApiAnswer>;
  cookies: ReadonlyMap<string, string>;
  /** The browser's Accept-Language header: dates are shown in its first language. */
  acceptLanguage: string | undefined;
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

/** Every page of the app with its route modules: the build weighs each (check-page-budgets.ts). */
export const appPages: readonly AppPage[] = listAppPages(appRoutes(createQueryClient()));

// The app's queries call `apiRequest`, which asks this source first: while a page renders,
// its request's own API. Renders run concurrently, so each finds its request here.
const requestApi = new AsyncLocalStorage<(apiPath: string) => Promise<ApiAnswer>>();
setAnswerSource((apiPath) => {
  const callApi = requestApi.getStore();
  if (!callApi) throw new Error('apiRequest on the server outside a page render');
  return callApi(apiPath);
});

/**
 * The locale and time zone the browser shows dates in, as far as the request tells: the
 * first language it accepts, and the time zone the app keeps in a cookie. Anything the
 * runtime does not know is left to the server's defaults.
 */
function dateRegionOf(request: AppPageRequest): DateRegion {
  const language = request.acceptLanguage?.split(',')[0]?.split(';')[0]?.trim();
  const timeZone = request.cookies.get(timeZoneCookieName);
  const isKnown = (locale: string | undefined, zone: string | undefined) => {
    try {
      new Intl.DateTimeFormat(locale, { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  };
  return {
    locale: language && language !== '*' && isKnown(language, undefined) ? language : undefined,
    timeZone: timeZone && isKnown(undefined, timeZone) ? timeZone : undefined,
  };
}

/** The modules of the matched routes' own code (router.tsx `lazyPage`), outermost first. */
function pageModulesOf(matches: readonly { route: { handle?: unknown } }[]): string[] {
  return matches.flatMap(({ route }) => (route.handle as PageHandle | undefined)?.pageModule ?? []);
}

/** The styles and code a page needs: its first load's chunks, from the build's manifest. */
function pageAssets(manifest: BuildManifest, routeModules: readonly string[]) {
  const chunks = firstLoadChunks(manifest, routeModules);
  const entry = manifest[entryManifestKey];
  if (!entry) throw new Error(`the build's manifest has no ${entryManifestKey}`);
  return {
    entryUrl: `/${entry.file}`,
    moduleUrls: chunks.map((chunk) => `/${chunk.file}`),
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
  const appStart = `<script src="/app-start.js" data-app-entry="${assets.entryUrl}" data-app-modules="${preloads}" defer></script>`;
  return `${stylesheets.join('')}${appStart}${headEnd}`;
}

/**
 * The whole document for a signed-in customer's page, or null when the app should render
 * it instead: a visitor or staff member, or an API answer other than 200 (the app shows
 * its own sign-in redirect, error or retry for those).
 */
export async function renderAppPage(
  request: AppPageRequest,
  build: { template: string; manifest: BuildManifest },
): Promise<string | null> {
  const page = serverRenderedPages[request.path];
  if (!page) throw new Error(`${request.path} is not rendered on the server`);
  for (const slot of [headEnd, rootElementTag, pageSlot, answersSlot]) {
    if (!build.template.includes(slot)) throw new Error(`index.html must contain ${slot}`);
  }
  const answers: PrerenderedAnswers = {};
  const queryClient = createQueryClient();
  const routes = appRoutes(queryClient);
  const context = await requestApi.run(
    async (apiPath) => {
      const answer = await request.callApi(apiPath);
      answers[apiPath] = answer;
      return answer;
    },
    async () => {
      await Promise.all([prefetchEveryPageData(queryClient), page.prefetch(queryClient)]);
      return createStaticRouter(routes, request.path);
    },
  );
  const me = queryClient.getQueryData(meQueryKey);
  const isEveryAnswerOk = Object.values(answers).every((answer) => answer.status === 200);
  if (me?.role !== 'customer' || !isEveryAnswerOk) return null;
  const assets = pageAssets(build.manifest, pageModulesOf(context.matches));

  // The app hydrates this markup (src/main.tsx), so it renders the same providers; the
  // router's state needs no embedding, the app loads the same routes before hydrating.
  const dateRegion = dateRegionOf(request);
  const pageHtml = inDateRegion(dateRegion, () =>
    renderToString(
      <Providers queryClient={queryClient}>
        <RequestFactsContext value={{ cookies: request.cookies }}>
          <StaticRouterProvider router={context} />
        </RequestFactsContext>
      </Providers>,
    ),
  );
  const institutionName = queryClient.getQueryData(siteQueryOptions.queryKey)?.institutionName;
  return (
    build.template
      // The template preloads the answers every page needs; this page carries them.
      .replaceAll(/<link rel="preload" href="\/api\/[^"]*"[^>]*>\s*/g, '')
      .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(institutionName ?? '')}</title>`)
      .replaceAll(moduleTagsPattern, '')
      .replace(headEnd, () => pageHeadEnd(build.template, assets))
      .replace(
        rootElementTag,
        () =>
          `<div id="root" ${serverRenderedAttribute} ${dateRegionAttribute}="${escapeHtml(dateRegionName(dateRegion))}">`,
      )
      .replace(pageSlot, () => pageHtml)
      .replace(answersSlot, () => prerenderedAnswersElement(answers))
  );
}
