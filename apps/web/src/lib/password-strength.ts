import type { estimatePasswordStrength } from '@coffer/contracts/password-strength';

type Estimator = typeof estimatePasswordStrength;

let estimatorPromise: Promise<Estimator> | undefined;

/**
 * Loads the password-strength estimator (zxcvbn and its dictionaries: 1.7 MB, about 750 KB
 * compressed) on first use: when someone types into a new-password field, so no page, not
 * even sign-up, downloads it before that.
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
