import { Anchor, Group, Text, ThemeIcon } from '@mantine/core';
import { Landmark } from 'lucide-react';
import { Link } from 'react-router';
import { brandName } from '../lib/use-page-title.ts';

/** The logo and name, linking home. */
export function Brand() {
  return (
    <Anchor component={Link} to="/" underline="never" c="inherit" aria-label={`${brandName} home`}>
      <Group gap={8} wrap="nowrap">
        <ThemeIcon size={30} radius="md" aria-hidden>
          <Landmark size={18} />
        </ThemeIcon>
        <Text component="span" fw={700} fz="lg" lh={1}>
          {brandName}
        </Text>
      </Group>
    </Anchor>
  );
}
