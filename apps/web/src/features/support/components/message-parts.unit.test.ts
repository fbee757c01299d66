import { describe, expect, it } from 'vitest';
import { messageParts } from './message-parts.ts';

describe('messageParts', () => {
  it('makes http and https addresses links, without the full stop after them', () => {
    expect(
      messageParts('See https://bank.example/help?a=1. Or http://x.example!', {
        isStaffView: false,
      }),
    ).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'url', url: 'https://bank.example/help?a=1' },
      { kind: 'text', text: '. Or ' },
      { kind: 'url', url: 'http://x.example' },
      { kind: 'text', text: '!' },
    ]);
  });

  it('leaves other schemes and markup as text', () => {
    const hostile = '<a href="javascript:alert(1)">x</a> javascript:alert(2) data:text/html,hi';
    expect(messageParts(hostile, { isStaffView: true })).toEqual([{ kind: 'text', text: hostile }]);
  });

  it('links dispute references for staff only', () => {
    const body = 'My dispute is REF-AB12CD34E, thanks';
    expect(messageParts(body, { isStaffView: true })).toEqual([
      { kind: 'text', text: 'My dispute is ' },
      { kind: 'reference', reference: 'REF-AB12CD34E' },
      { kind: 'text', text: ', thanks' },
    ]);
    expect(messageParts(body, { isStaffView: false })).toEqual([{ kind: 'text', text: body }]);
  });
});
