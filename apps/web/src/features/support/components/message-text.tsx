import { disputeReferencePattern } from '@coffer/contracts/disputes';
import { Anchor, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

// Web addresses (http and https only: no javascript: or data: can become a link) and, for
// staff, dispute references. Everything else stays text: React escapes it.
const linkPattern = new RegExp(
  `(https?://[^\\s<>"']+[^\\s<>"'.,;:!?)\\]])|(${disputeReferencePattern.source})`,
  'g',
);

/** A message as plain text, with web addresses (and for staff REF- numbers) as links. */
export function MessageText({ body, isStaffView }: { body: string; isStaffView: boolean }) {
  const parts: ReactNode[] = [];
  let lastIndex = 0;
  for (const match of body.matchAll(linkPattern)) {
    const [text, url, reference] = match;
    const index = match.index;
    if (index > lastIndex) parts.push(body.slice(lastIndex, index));
    if (url) {
      parts.push(
        <Anchor key={index} href={url} target="_blank" rel="noopener noreferrer nofollow">
          {url}
        </Anchor>,
      );
    } else if (reference && isStaffView) {
      parts.push(
        <Anchor key={index} component={Link} to={`/admin/disputes/${reference}`}>
          {reference}
        </Anchor>,
      );
    } else {
      parts.push(text);
    }
    lastIndex = index + text.length;
  }
  if (lastIndex < body.length) parts.push(body.slice(lastIndex));
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {parts}
    </Text>
  );
}
