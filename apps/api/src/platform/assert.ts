/** A programmer error: the request fails with a 500 and the transaction rolls back. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError(message);
}

export class AssertionError extends Error {
  override name = 'AssertionError';
}
