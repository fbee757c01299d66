import { describe, expect, it } from 'vitest';
import { countOf } from './counts.ts';

describe('countOf', () => {
  it('names one thing in the singular and every other count in the plural', () => {
    expect(countOf(1, 'deposit request', 'deposit requests')).toBe('1 deposit request');
    expect(countOf(0, 'entry', 'entries')).toBe('0 entries');
    expect(countOf(4, 'entry', 'entries')).toBe('4 entries');
  });
});
