import { Alert } from '@mantine/core';
import { CircleAlert } from 'lucide-react';
import { contractText } from '../lib/api-client.ts';

/** A form-level failure, announced to screen readers when it appears. */
export function FormAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<CircleAlert size={18} aria-hidden />} role="alert">
      {contractText(message)}
    </Alert>
  );
}
