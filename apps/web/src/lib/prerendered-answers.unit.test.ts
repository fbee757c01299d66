import { describe, expect, it } from 'vitest';
import { prerenderedAnswersElement, prerenderedAnswersElementId } from './prerendered-answers.ts';

describe('prerenderedAnswersElement', () => {
  it('writes the answers so that no text in them can end the element, and reads back whole', () => {
    const note = '</script><script>alert(1)</script><!-- & \u2028';
    const answers = { '/api/v1/wallet/transactions': { status: 200, json: { items: [{ note }] } } };
    const element = prerenderedAnswersElement(answers);
    const opening = `<script type="application/json" id="${prerenderedAnswersElementId}">`;
    expect(element.startsWith(opening)).toBe(true);
    expect(element.endsWith('</script>')).toBe(true);
    const json = element.slice(opening.length, -'</script>'.length);
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual(answers);
  });
});
