import { Box, Container } from '@mantine/core';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { Brand } from '../components/brand.tsx';
import { SandboxBanner } from '../components/sandbox-banner.tsx';

/** The frame of public pages: the sandbox label, the brand, then the page's own <main>. */
export function PublicFrame({ children }: { children: ReactNode }) {
  return (
    <Box mih="100dvh">
      <SandboxBanner />
      <Container component="header" size="md" py="md">
        <Brand />
      </Container>
      {children}
    </Box>
  );
}

/** Route layout for pages anyone may open (landing, 404). */
export function PublicLayout() {
  return (
    <PublicFrame>
      <Outlet />
    </PublicFrame>
  );
}
