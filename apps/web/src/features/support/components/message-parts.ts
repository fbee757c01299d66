import { disputeReferencePattern } from '@coffer/contracts/disputes';

export type MessagePart =
  | { kind: 'text'; text: string }
  | { kind: 'url'; url: string }
  | { kind: 'reference'; reference: string };

// Web addresses, http and https only (a javascript: or data: address stays text), ending
// before trailing punctuation; and dispute references.
const linkPattern = new RegExp(
  `(https?://[^\\s<>"']+[^\\s<>"'.,;:!?)\\]])|(${disputeReferencePattern.source})`,
  'g',
);

/**
 * A message cut into text, web addresses and dispute references, for the thread to show
 * as text and links. References become parts only for staff; for customers they are text.
 */
export function messageParts(body: string, options: { isStaffView: boolean }): MessagePart[] {
  const parts: MessagePart[] = [];
  let textStart = 0;
  const pushText = (end: number) => {
    if (end > textStart) parts.push({ kind: 'text', text: body.slice(textStart, end) });
  };
  for (const match of body.matchAll(linkPattern)) {
    const [found, url, reference] = match;
    if (url) {
      pushText(match.index);
      parts.push({ kind: 'url', url });
      textStart = match.index + found.length;
    } else if (reference && options.isStaffView) {
      pushText(match.index);
      parts.push({ kind: 'reference', reference });
      textStart = match.index + found.length;
    }
  }
  pushText(body.length);
  return parts;
}
