// The package ships no types; this covers what the statement's line wrapping calls.
declare module 'linebreak' {
  /** The Unicode line-breaking algorithm (UAX #14) over one text. */
  export default class LineBreaker {
    constructor(text: string);
    /** The next place a line may end (`position`, a UTF-16 offset), or null after the last. */
    nextBreak(): { position: number; required: boolean } | null;
  }
}
