import type { ConsoleProblems } from './browser.ts';

/**
 * The console problems a test did not expect. Tests name any failing request they provoke
 * on purpose in `expectedFailures` (a path and a status).
 */
export function unexpectedProblems(
  problems: ConsoleProblems,
  expectedFailures: readonly { path: string; status: number }[] = [],
): string[] {
  const allowed = expectedFailures;
  return problems.messages.filter(
    (message) =>
      !allowed.some(
        (failure) =>
          message.includes(`status of ${failure.status}`) &&
          new RegExp(`https?://[^/\\s]+${failure.path}(?:[?:]|\\))`).test(message),
      ),
  );
}
