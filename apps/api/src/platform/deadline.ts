/**
 * `work`'s answer, or a rejection naming `what` once `timeoutMs` pass first. The work
 * itself goes on (a statement sent is not recalled); only the wait for it ends.
 */
export function withinMs<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  return Promise.race([work, expiry]).finally(() => clearTimeout(timer));
}
