declare module 'virtual:coffer/page-words' {
  /** The version of the build's words modules, which their addresses carry (page-words.ts). */
  export const wordsVersion: string;
}

declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
