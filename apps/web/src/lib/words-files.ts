// The addresses of the browser's words modules (docs/decisions/054): the build writes them
// (apps/web/page-words.ts), the app and the server's pages name them (lib/i18n.ts), both
// from here. One module per entry (the frame, a route module) and language, all carrying
// the version of the build's words, so a new build's words are new addresses.

/** The frame's name among the entries with words: what every page shows, with the app. */
export const frameName = '';
/** The module whose reach is the frame. */
export const frameEntry = 'main.tsx';

/** An entry's words module's name, without the version: `features.wallet.pages.dashboard-page.de`. */
export function wordsFileStem(entry: string, language: string): string {
  const module = entry === frameName ? frameEntry : entry.replace(/^src\//, '');
  return `${module.replace(/\.tsx?$/, '').replaceAll('/', '.')}.${language}`;
}

/** Where a words module is, from the web app's root: `assets/words/<stem>-<version>.js`. */
export function wordsFile(stem: string, version: string): string {
  return `assets/words/${stem}-${version}.js`;
}
