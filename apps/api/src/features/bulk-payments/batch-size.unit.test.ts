import { describe, expect, it } from 'vitest';
import { bulkBatchLines, nextBatchLines } from './payer.ts';

const { first, min, max, targetMs } = bulkBatchLines;

describe('the bulk payer’s batch size (nextBatchLines)', () => {
  it('grows a fast batch towards the target, at most doubling at once and never past the most', () => {
    expect(nextBatchLines(first, first, targetMs / 4)).toBe(first * 2);
    expect(nextBatchLines(400, 400, (targetMs * 400) / 500)).toBe(500);
    expect(nextBatchLines(max, max, 1)).toBe(max);
  });

  it('shrinks a slow batch to what fits in the target, at most halving at once, never below the least', () => {
    expect(nextBatchLines(400, 400, (targetMs * 400) / 300)).toBe(300);
    expect(nextBatchLines(first, first, targetMs * 1000)).toBe(first / 2);
    expect(nextBatchLines(min, min, targetMs * 1000)).toBe(min);
  });

  it('keeps the size after a file’s short last batch, unless that batch was slow', () => {
    expect(nextBatchLines(500, 3, 5)).toBe(500);
    expect(nextBatchLines(500, 0, 5)).toBe(500);
    expect(nextBatchLines(500, 100, targetMs * 2)).toBe(250);
  });
});
