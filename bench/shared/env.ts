/** An integer setting from the environment, or `fallback` when unset; out of range throws. */
export function integerFromEnv(
  name: string,
  fallback: number,
  range: { min: number; max: number },
): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new Error(`${name} must be an integer from ${range.min} to ${range.max}, not ${text}`);
  }
  return value;
}
