/**
 * The arithmetic of the 30-day balance chart, apart from React: the value axis in minor
 * units (bigint, so no amount is ever a float) and positions as percentages of the plot,
 * which only place pixels.
 */

/** Value-axis lines drawn for the highest balance; the step is rounded to a "nice" one. */
const valueTickIntervalCount = 4n;
const niceStepMultipliers = [1n, 2n, 5n, 10n] as const;

/** At most this many day labels fit under the plot without touching each other. */
const dayLabelStep = 3;

export type ValueAxis = {
  /** From 0 to `topMinor`, evenly spaced, in minor units. */
  ticksMinor: bigint[];
  /** The top of the plot: the last tick, at or above the highest balance. */
  topMinor: bigint;
};

/** A round step (1, 2 or 5 times a power of ten) that splits 0…maxMinor into about 4 parts. */
function niceStepMinor(maxMinor: bigint): bigint {
  const roughStepMinor = (maxMinor + valueTickIntervalCount - 1n) / valueTickIntervalCount;
  const magnitude = 10n ** BigInt(String(roughStepMinor).length - 1);
  for (const multiplier of niceStepMultipliers) {
    if (multiplier * magnitude >= roughStepMinor) return multiplier * magnitude;
  }
  return 10n * magnitude;
}

/** The value axis for balances up to `maxMinor` (a wallet is never negative). */
export function valueAxis(maxMinor: bigint): ValueAxis {
  // An empty wallet still gets a plot with a height: its line lies on the axis.
  if (maxMinor <= 0n) return { ticksMinor: [0n], topMinor: 1n };
  const stepMinor = niceStepMinor(maxMinor);
  const topMinor = ((maxMinor + stepMinor - 1n) / stepMinor) * stepMinor;
  const ticksMinor: bigint[] = [];
  for (let tickMinor = 0n; tickMinor <= topMinor; tickMinor += stepMinor) {
    ticksMinor.push(tickMinor);
  }
  return { ticksMinor, topMinor };
}

/** How far up the plot a balance sits, 0 (bottom) to 100 (top), to a hundredth. */
export function heightPercent(balanceMinor: bigint, topMinor: bigint): number {
  return Number((balanceMinor * 10_000n) / topMinor) / 100;
}

/** How far across the plot day `index` of `count` sits, 0 to 100. */
export function acrossPercent(index: number, count: number): number {
  return count <= 1 ? 0 : (index / (count - 1)) * 100;
}

/**
 * The balance as a step line in a 100 × 100 box (y grows downwards): each day's balance
 * holds until the next day, as a balance does. `closed` adds the way back along the
 * bottom, for the filled area under the line.
 */
export function stepPath(heightsPercent: readonly number[], closed: boolean): string {
  const count = heightsPercent.length;
  if (count === 0) return '';
  const yOf = (heightPercentValue: number) => 100 - heightPercentValue;
  const [first = 0, ...rest] = heightsPercent;
  const commands = [`M0 ${yOf(first)}`];
  rest.forEach((height, offset) => {
    commands.push(`H${acrossPercent(offset + 1, count)}`, `V${yOf(height)}`);
  });
  if (count === 1) commands.push('H100');
  if (closed) commands.push('V100', 'H0', 'Z');
  return commands.join(' ');
}

export type DayLabel = {
  index: number;
  /**
   * How sparse a set of labels still keeps this one: 1, 2 or 4 (every label, every other,
   * every fourth), counted back from today's, so narrow charts can drop the rest.
   */
  keptAtEvery: 1 | 2 | 4;
};

/**
 * The days that get a label: today's, and every `dayLabelStep`-th day back from it, so
 * the newest labels are evenly spaced.
 */
export function dayLabels(count: number): DayLabel[] {
  const labels: DayLabel[] = [];
  for (let position = 0; count - 1 - position * dayLabelStep >= 0; position += 1) {
    const keptAtEvery = position % 4 === 0 ? 4 : position % 2 === 0 ? 2 : 1;
    labels.unshift({ index: count - 1 - position * dayLabelStep, keptAtEvery });
  }
  return labels;
}
