import { MantineProvider } from '@mantine/core';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { mantineSettings } from './providers.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

const header = `/*
 * What Mantine's provider would write into every page as a <style> from the theme (theme.ts):
 * the theme's CSS variables and the classes behind hiddenFrom/visibleFrom, as a stylesheet the
 * build bundles, so neither the server nor the browser works them out on every render
 * (docs/decisions/031). Generated: theme-variables.unit.test.ts fails when it differs from
 * what Mantine renders for the theme; \`npx vitest run --project unit -u
 * apps/web/src/app/theme-variables.unit.test.ts\` writes it anew.
 */
`;

/** The <style> elements MantineProvider renders for the theme, by their data attribute. */
function renderedStyles(): Record<string, string> {
  const html = renderToString(
    createElement(MantineProvider, { theme, cssVariablesResolver, defaultColorScheme: 'light' }),
  );
  const styles = html.matchAll(/<style data-mantine-styles="([a-z]+)">([^<]*)<\/style>/g);
  return Object.fromEntries([...styles].map(([, name = '', css = '']) => [name, css]));
}

describe('theme-variables.css', () => {
  it("holds what Mantine's provider renders for the theme", async () => {
    const { true: variables, classes } = renderedStyles();
    expect(variables).toContain('--mantine-color-coffer-7');
    expect(classes).toContain('.mantine-hidden-from-sm');
    await expect(`${header}${variables}\n\n${classes}\n`).toMatchFileSnapshot(
      './theme-variables.css',
    );
  });

  it('is the only place the app takes them from: the provider renders neither', () => {
    const html = renderToString(createElement(MantineProvider, { ...mantineSettings }));
    expect(html).not.toContain('<style');
  });
});
