// Heavy (the dictionaries are about 1 MB): the web app imports this lazily, on the
// sign-up and password forms only.
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEnglish from '@zxcvbn-ts/language-en';
import { passwordLengthMin } from './auth.ts';

const estimator = new ZxcvbnFactory({
  dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEnglish.dictionary },
  graphs: zxcvbnCommon.adjacencyGraphs,
  translations: zxcvbnEnglish.translations,
});

/** zxcvbn score 3 or more ("safely unguessable") is what sign-up and resets accept. */
export const passwordScoreMin = 3;

export type PasswordStrength = {
  /** 0 (too guessable) to 4 (very unguessable). */
  score: 0 | 1 | 2 | 3 | 4;
  isStrongEnough: boolean;
  /** A hint to show under the meter, in English. */
  suggestion: string | null;
};

/** How guessable the password is, counting the person's own details (name, email) as weak. */
export function estimatePasswordStrength(
  password: string,
  personalWords: string[],
): PasswordStrength {
  const result = estimator.check(
    password,
    personalWords.filter((word) => word.length > 0),
  );
  return {
    score: result.score,
    isStrongEnough: password.length >= passwordLengthMin && result.score >= passwordScoreMin,
    suggestion: result.feedback.warning ?? result.feedback.suggestions[0] ?? null,
  };
}
