declare module 'virtual:coffer/feature-dependencies' {
  /** Each feature ('' the shared frame) with the features whose words its pages show. */
  const featureDependencies: Readonly<Record<string, readonly string[]>>;
  export default featureDependencies;
}

declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
