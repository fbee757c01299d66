declare module 'virtual:coffer/feature-dependencies' {
  /**
   * Each page module (`src/features/x/pages/y.tsx`) with the features whose words it shows,
   * and the shared frame ('') with the features it reaches (feature-dependencies.ts).
   */
  const pageFeatures: Readonly<Record<string, readonly string[]>>;
  export default pageFeatures;
}

declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
