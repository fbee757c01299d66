import { describe, expect, it } from 'vitest';
import { dayLabels, heightPercent, stepPath, valueAxis } from './balance-chart-geometry.ts';

describe('valueAxis', () => {
  it('splits the range up to the highest balance into round steps, in minor units', () => {
    expect(valueAxis(150_480n)).toEqual({
      ticksMinor: [0n, 50_000n, 100_000n, 150_000n, 200_000n],
      topMinor: 200_000n,
    });
    expect(valueAxis(100_000n)).toEqual({
      ticksMinor: [0n, 50_000n, 100_000n],
      topMinor: 100_000n,
    });
    expect(valueAxis(7n).topMinor).toBe(8n);
  });

  it('keeps amounts beyond a float’s exact range exact', () => {
    const maxMinor = 9_007_199_254_740_993_123n;
    const axis = valueAxis(maxMinor);
    expect(axis.topMinor >= maxMinor).toBe(true);
    expect(axis.ticksMinor.at(-1)).toBe(axis.topMinor);
    expect(axis.topMinor % (axis.ticksMinor[1] ?? 1n)).toBe(0n);
  });

  it('gives an empty wallet a plot with a height, its line on the axis', () => {
    expect(valueAxis(0n)).toEqual({ ticksMinor: [0n], topMinor: 1n });
    expect(heightPercent(0n, 1n)).toBe(0);
  });
});

describe('stepPath', () => {
  it('holds each day’s balance until the next day, across a 100 × 100 box', () => {
    expect(stepPath([0, 50, 100], false)).toBe('M0 100 H50 V50 H100 V0');
    expect(stepPath([0, 50, 100], true)).toBe('M0 100 H50 V50 H100 V0 V100 H0 Z');
    expect(stepPath([25], false)).toBe('M0 75 H100');
    expect(stepPath([], false)).toBe('');
  });
});

describe('dayLabels', () => {
  it('labels today and every third day back, and says which a narrow chart keeps', () => {
    const labels = dayLabels(30);
    expect(labels.map((label) => label.index)).toEqual([2, 5, 8, 11, 14, 17, 20, 23, 26, 29]);
    expect(labels.filter((label) => label.keptAtEvery >= 2).map((label) => label.index)).toEqual([
      5, 11, 17, 23, 29,
    ]);
    expect(labels.filter((label) => label.keptAtEvery === 4).map((label) => label.index)).toEqual([
      5, 17, 29,
    ]);
    expect(dayLabels(1)).toEqual([{ index: 0, keptAtEvery: 4 }]);
  });
});
