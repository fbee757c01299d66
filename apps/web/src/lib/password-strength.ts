import type { estimatePasswordStrength } from '@coffer/contracts/password-strength';

type Estimator = typeof estimatePasswordStrength;

let estimatorPromise: Promise<Estimator> | undefined;

/**
 * Loads the password-strength estimator (zxcvbn and its dictionaries, about 1 MB) on first
 * use. Only pages with a new-password field call this, so no other page downloads it.
 */
export function loadPasswordStrengthEstimator(): Promise<Estimator> {
  estimatorPromise ??= import('@coffer/contracts/password-strength').then(
    (module) => module.estimatePasswordStrength,
    (error: unknown) => {
      // A failed download (offline, a new release) may succeed on the next keystroke.
      estimatorPromise = undefined;
      throw error;
    },
  );
  return estimatorPromise;
}
