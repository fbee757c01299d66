import { z } from 'zod/mini';
import { type ApiAnswer, setAnswerSource } from './api-client.ts';

/**
 * The element in which the server puts the API answers it rendered the page with
 * (src/app-server.tsx writes it, docs/decisions/011). A JSON data block, not a script:
 * the content security policy allows no inline script, and none is needed.
 */
export const prerenderedAnswersElementId = 'coffer-prerendered-answers';

/**
 * On the root element while it holds the page the server rendered; the app takes it off
 * once it has hydrated (or replaced) that page and the page's buttons work.
 */
export const serverRenderedAttribute = 'data-server-rendered';

/**
 * On the root element of a server-rendered page: the locale and time zone its dates were
 * written for (lib/dates.ts `dateRegionName`).
 */
export const dateRegionAttribute = 'data-date-region';

/**
 * On the root element of a server-rendered form a visitor may use before the app has
 * started (sign-up, sign-in: docs/decisions/056). public/app-start.js leaves it usable
 * instead of inert and holds back a submit until the app has taken over; the app hydrates
 * it whatever the date region (it shows no dates) and keeps what was typed
 * (lib/input-before-start.ts).
 */
export const inputBeforeStartAttribute = 'data-input-before-start';

const prerenderedAnswersSchema = z.record(
  z.string().check(z.startsWith('/api/')),
  z.object({ status: z.number().check(z.int()), json: z.unknown() }),
);

export type PrerenderedAnswers = Record<string, ApiAnswer>;

let isServerRendered = false;

/**
 * Whether this page arrived rendered by the server. Its data is then as old as the page,
 * older than the live event stream opened after it (lib/live-events.tsx).
 */
export function isPageServerRendered(): boolean {
  return isServerRendered;
}

/**
 * Serves the page's first GETs from the answers the server rendered it with, each once:
 * the app's first render then shows what the server painted, without asking again. Later
 * requests (a refetch, a live event) go to the network. Returns whether there were any.
 */
export function servePrerenderedAnswers(): boolean {
  const element = document.getElementById(prerenderedAnswersElementId);
  if (!element?.textContent) return false;
  element.remove();
  let parsed: ReturnType<typeof prerenderedAnswersSchema.safeParse>;
  try {
    parsed = prerenderedAnswersSchema.safeParse(JSON.parse(element.textContent));
  } catch {
    return false;
  }
  if (!parsed.success) return false;
  isServerRendered = true;
  const answers = new Map(Object.entries(parsed.data));
  setAnswerSource((path) => {
    const answer = answers.get(path);
    if (!answer) return undefined;
    answers.delete(path);
    return Promise.resolve(answer);
  });
  return true;
}

/** The answers as the page's JSON data block: `<` is escaped, so no text can end it. */
export function prerenderedAnswersElement(answers: PrerenderedAnswers): string {
  const json = JSON.stringify(answers)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
  return `<script type="application/json" id="${prerenderedAnswersElementId}">${json}</script>`;
}
