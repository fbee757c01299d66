import { Loader, MantineProvider } from '@mantine/core';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { theme } from './theme.ts';

describe("the theme's Loader", () => {
  it('is a status, so the aria-label every spinner carries names something', () => {
    const html = renderToString(
      createElement(
        MantineProvider,
        { theme },
        createElement(Loader, { 'aria-label': 'Loading sessions' }),
      ),
    );
    expect(html).toMatch(
      /<span[^>]*role="status"[^>]*aria-label="Loading sessions"|<span[^>]*aria-label="Loading sessions"[^>]*role="status"/,
    );
  });
});
