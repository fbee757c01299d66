import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A section's heading and one-line introduction, the same on every landing section. */
export function SectionHeading({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children?: ReactNode;
}) {
  return (
    <Stack gap={6} mb="xl" maw={680}>
      <Title order={2} id={id} fz={{ base: 24, sm: 30 }}>
        {title}
      </Title>
      {children && (
        <Text c="dimmed" fz="lg">
          {children}
        </Text>
      )}
    </Stack>
  );
}
