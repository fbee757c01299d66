import { Container, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The frame of the sign-in pages: a centred card with the page's heading. */
export function AuthCard({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Container component="main" size={480} py={{ base: 24, sm: 56 }} px={{ base: 'sm', xs: 'md' }}>
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 32 }}>
        <Stack gap={4} mb="lg">
          <Title order={1} fz={{ base: 26, sm: 28 }}>
            {title}
          </Title>
          {description && <Text c="dimmed">{description}</Text>}
        </Stack>
        {children}
      </Paper>
    </Container>
  );
}
