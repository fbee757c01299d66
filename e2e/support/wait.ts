/** Polls `check` until it returns true, or fails with `description` after `timeoutMs`. */
export async function waitUntil(
  description: string,
  check: () => Promise<boolean>,
  timeoutMs = 5_000,
): Promise<void> {
  const pollIntervalMs = 50;
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${description}`);
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }
}
