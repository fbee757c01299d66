import { z } from './zod.ts';

/**
 * The one schema for text people type. PostgreSQL refuses a NUL in text (SQLSTATE 22021,
 * a 500 before this schema), and a lone UTF-16 surrogate has no UTF-8 form (the drivers
 * store U+FFFD instead, so the text kept is not the text sent). Other control characters
 * (C0, DEL, C1) are never typed on purpose and would be stored invisibly, to surface later
 * in an email, a statement or a staff screen; so would bidirectional overrides, which also
 * reorder what is shown. Everything else is welcome: accents, other scripts, emoji.
 */

type CharacterRule = (codePoint: number) => boolean;

/** C0 controls, DEL and C1 controls. */
const isControl: CharacterRule = (codePoint) =>
  codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f);
/** Iterating a string by code points yields a well-formed pair as one; only lone halves get here. */
const isLoneSurrogate: CharacterRule = (codePoint) => codePoint >= 0xd800 && codePoint <= 0xdfff;
/** Tab, line feed and carriage return: the controls a paragraph is made of. */
const paragraphControls = new Set([0x09, 0x0a, 0x0d]);

/**
 * Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): typed by
 * nobody, they make a name, merchant or note read otherwise on a staff screen or a
 * statement than it is ("Trojan Source"). The marks U+200E/U+200F stay: RTL text uses them.
 */
const isBidiControl: CharacterRule = (codePoint) =>
  (codePoint >= 0x202a && codePoint <= 0x202e) || (codePoint >= 0x2066 && codePoint <= 0x2069);

const refusedInOneLine: CharacterRule = (codePoint) =>
  isControl(codePoint) || isBidiControl(codePoint) || isLoneSurrogate(codePoint);
const refusedInParagraph: CharacterRule = (codePoint) =>
  (isControl(codePoint) && !paragraphControls.has(codePoint)) ||
  isBidiControl(codePoint) ||
  isLoneSurrogate(codePoint);
/** A password may be anything a keyboard or a password manager types; NUL cannot be one. */
const refusedInPassword: CharacterRule = (codePoint) =>
  codePoint === 0 || isLoneSurrogate(codePoint);

function firstRefused(text: string, isRefused: CharacterRule): number | undefined {
  for (const character of text) {
    const codePoint = character.codePointAt(0) ?? 0;
    if (isRefused(codePoint)) return codePoint;
  }
  return undefined;
}

/** The message beside a field that holds a refused character, naming it. */
export function refusedCharacterMessage(codePoint: number): string {
  const name = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  return isLoneSurrogate(codePoint)
    ? `Remove the broken character (${name}) and type it again`
    : `Remove the invisible control character (${name})`;
}

export type TextOptions = {
  /**
   * The most UTF-16 code units after trimming, as `String.length` counts them (an emoji is
   * two): the unit of the ledger's memo limit, which this bound has to guarantee. Zod's own
   * `.max()` counts code points, so it is not used here.
   */
  max: number;
  /** The message when it is longer; "Use at most {max} characters" by default. */
  tooLong?: string;
  /** The message when the field is missing or not a string at all. */
  missing?: string;
};

function textSchema(isRefused: CharacterRule, options: TextOptions & { isTrimmed: boolean }) {
  const base = z.string(options.missing === undefined ? undefined : { error: options.missing });
  const tooLong = options.tooLong ?? `Use at most ${options.max} characters`;
  return (options.isTrimmed ? base.check(z.trim()) : base).check(
    z.superRefine((text, context) => {
      if (text.length > options.max) context.addIssue({ code: 'custom', message: tooLong });
      const codePoint = firstRefused(text, isRefused);
      if (codePoint !== undefined) {
        context.addIssue({ code: 'custom', message: refusedCharacterMessage(codePoint) });
      }
    }),
  );
}

/**
 * One line of text (a name, a reference, a search, an email address): trimmed, at most
 * `max` long, no control characters at all. Chain `.min()`, `.regex()` … for the rest.
 */
export function singleLineText(options: TextOptions) {
  return textSchema(refusedInOneLine, { ...options, isTrimmed: true });
}

/** Text that may run over several lines (a staff reason): as one line, plus tab and newlines. */
export function multiLineText(options: TextOptions) {
  return textSchema(refusedInParagraph, { ...options, isTrimmed: true });
}

/** A password as typed: never trimmed (spaces count), refused only for NUL or a broken character. */
export function passwordText(options: TextOptions) {
  return textSchema(refusedInPassword, { ...options, isTrimmed: false });
}
