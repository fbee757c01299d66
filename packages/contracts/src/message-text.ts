/**
 * Translates a finished English message (ADR 055). The API and the contracts write their
 * messages in English, the message id (gettext style); a message with values is written
 * from a template whose values are ICU placeholders in the catalog (`Enter a valid {coin}
 * address`). Given the English text, this finds its template (the id itself, or the one
 * template the text fits) and the values it was filled with, and asks the catalog for the
 * translation: so a refusal thrown deep in a service is translated once, where it is sent.
 * Text no template fits (an operator's own words, a name) is left as it is.
 */
export type Translate = (id: string, values?: Record<string, string>) => string;

type Template = { id: string; pattern: RegExp; names: string[] };

const simplePlaceholder = /\{(\w+)\}/g;

function escapeRegExp(text: string): string {
  return text.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A template for each id with simple `{name}` placeholders (plural and select are not read back). */
function templatesOf(ids: Iterable<string>): Template[] {
  const templates: Template[] = [];
  for (const id of ids) {
    const names = [...id.matchAll(simplePlaceholder)].map((match) => match[1] ?? '');
    if (names.length === 0 || /\{\w+,/.test(id)) continue;
    const literalParts = id.split(simplePlaceholder).filter((_, index) => index % 2 === 0);
    const source = literalParts.map(escapeRegExp).join('([\\s\\S]+?)');
    templates.push({ id, pattern: new RegExp(`^${source}$`), names });
  }
  // The template with the most literal text first: "Your dispute {reference} {news}" must
  // not take a text that a longer, more specific template fits.
  return templates.sort((a, b) => literalLength(b.id) - literalLength(a.id));
}

function literalLength(id: string): number {
  return id.replaceAll(simplePlaceholder, '').length;
}

export type TextTranslator = (englishText: string) => string;

/** Rewrites a value read back from English text for the language (an amount in its locale). */
export type LocalizeValue = (name: string, value: string) => string;

/**
 * A translator of English text into one language: `ids` are the catalog's message ids,
 * `translate` the language's own lookup (Lingui's `i18n._`).
 */
export function textTranslator(
  ids: Iterable<string>,
  translate: Translate,
  localizeValue: LocalizeValue = (_, value) => value,
): TextTranslator {
  const known = new Set(ids);
  const templates = templatesOf(known);
  return (englishText) => {
    if (known.has(englishText)) return translate(englishText);
    for (const template of templates) {
      const match = template.pattern.exec(englishText);
      if (!match) continue;
      const values: Record<string, string> = {};
      template.names.forEach((name, index) => {
        values[name] = localizeValue(name, match[index + 1] ?? '');
      });
      return translate(template.id, values);
    }
    return englishText;
  };
}
