import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { messageParts } from './message-parts.ts';

/** A message as plain text, with web addresses (and for staff REF- numbers) as links. */
export function MessageText({ body, isStaffView }: { body: string; isStaffView: boolean }) {
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {messageParts(body, { isStaffView }).map((part, index) => {
        const key = `${index}-${part.kind}`;
        if (part.kind === 'url') {
          return (
            <Anchor key={key} href={part.url} target="_blank" rel="noopener noreferrer nofollow">
              {part.url}
            </Anchor>
          );
        }
        if (part.kind === 'reference') {
          return (
            <Anchor key={key} component={Link} to={`/admin/disputes/${part.reference}`}>
              {part.reference}
            </Anchor>
          );
        }
        return <span key={key}>{part.text}</span>;
      })}
    </Text>
  );
}
