import { type Language, sourceLanguage } from './languages.ts';

/**
 * An amount as a person writes it in their language ("1.500,50" in German, "١٢٫٥" in
 * Arabic) as the plain decimal text the API takes ("1500.50"), which `parseAmount` reads
 * the same in every language (docs/decisions/054). Text that is no amount in the language
 * comes back as typed, cleaned of spaces and marks, and `parseAmount` says why.
 *
 * In a language whose decimal mark is a comma, a point is a group separator when three
 * digits follow it ("1.500" is 1500), and otherwise the decimal point a person used out of
 * habit ("12.50"); the same holds the other way round for a comma in English.
 */
export function canonicalAmountText(text: string, language: Language = sourceLanguage): string {
  const { decimalMark, groupMark } = marksOf(language);
  const cleaned = westernDigits(text).replace(/[\s\u200e\u200f\u061c]/g, '');
  const decimalAt = cleaned.lastIndexOf(decimalMark);
  const whole = decimalAt === -1 ? cleaned : cleaned.slice(0, decimalAt);
  const fraction = decimalAt === -1 ? undefined : cleaned.slice(decimalAt + 1);
  if (fraction !== undefined) {
    return groupedDigits(whole, groupMark) ? `${ungrouped(whole, groupMark)}.${fraction}` : cleaned;
  }
  if (groupedDigits(whole, groupMark)) return ungrouped(whole, groupMark);
  // A lone group mark not followed by three digits can only be a decimal point.
  const parts = whole.split(groupMark);
  if (
    parts.length === 2 &&
    /^\d+$/.test(parts[0] ?? '') &&
    /^\d{1,2}$|^\d{4,}$/.test(parts[1] ?? '')
  ) {
    return `${parts[0]}.${parts[1]}`;
  }
  return cleaned;
}

function marksOf(language: Language): { decimalMark: string; groupMark: string } {
  return language === 'de'
    ? { decimalMark: ',', groupMark: '.' }
    : { decimalMark: '.', groupMark: ',' };
}

/**
 * Arabic-Indic and Eastern Arabic-Indic digits with Arabic's own marks, and the full-width
 * digits and marks a Japanese keyboard types, as ASCII.
 */
function westernDigits(text: string): string {
  return text
    .replace(/[\uff10-\uff19\uff0c\uff0e]/g, (char) =>
      String.fromCharCode(char.charCodeAt(0) - 0xfee0),
    )
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (digit) => String(digit.charCodeAt(0) - 0x06f0))
    .replace(/\u066b/g, '.')
    .replace(/\u066c/g, ',');
}

/** Digits with, if any, group marks every three digits from the right: "1.500.000". */
function groupedDigits(text: string, groupMark: string): boolean {
  if (/^\d+$/.test(text)) return true;
  const groups = text.split(groupMark);
  return (
    groups.length > 1 &&
    /^\d{1,3}$/.test(groups[0] ?? '') &&
    groups.slice(1).every((group) => /^\d{3}$/.test(group))
  );
}

function ungrouped(text: string, groupMark: string): string {
  return text.split(groupMark).join('');
}
