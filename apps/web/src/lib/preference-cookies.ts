/**
 * The browser's preferences the server needs to render a page as the browser would
 * (docs/decisions/011): readable by the page and sent with every request. Kept as long
 * as browsers allow (400 days).
 */
const preferenceMaxAgeSeconds = 400 * 24 * 60 * 60;

export function readPreferenceCookie(name: string): string | undefined {
  const prefix = `${name}=`;
  const found = document.cookie.split('; ').find((cookie) => cookie.startsWith(prefix));
  return found === undefined ? undefined : decodeURIComponent(found.slice(prefix.length));
}

/** Writes the cookie unless it already holds `value`. */
export function writePreferenceCookie(name: string, value: string): void {
  if (readPreferenceCookie(name) === value) return;
  const secure = window.location.protocol === 'https:' ? '; secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is async and newer than some browsers Coffer supports; the value is encoded.
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${preferenceMaxAgeSeconds}; samesite=lax${secure}`;
}
