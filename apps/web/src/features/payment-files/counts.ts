// "1 entry", "4 entries": English counts until the app is translated (issue #35), when the
// i18n library's plural rules take this over.
const englishPlural = new Intl.PluralRules('en-US');

/** `count` with the noun in the form the number takes: countOf(1, 'entry', 'entries'). */
export function countOf(count: number, one: string, other: string): string {
  return `${count} ${englishPlural.select(count) === 'one' ? one : other}`;
}
