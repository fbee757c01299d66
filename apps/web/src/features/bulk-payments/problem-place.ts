import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/**
 * Where in a file a problem is, as the server names it ("line 3", "line 3, column 2"), in
 * the page's language; any other place reads as the server wrote it.
 */
export function problemPlace(i18n: I18n, place: string): string {
  const found = /^line (\d+)(?:, column (\d+))?$/.exec(place);
  if (!found) return place[0]?.toUpperCase() + place.slice(1);
  const line = found[1] ?? '';
  const column = found[2];
  return column === undefined
    ? i18n._(msg`Line ${line}`)
    : i18n._(msg`Line ${line}, column ${column}`);
}
