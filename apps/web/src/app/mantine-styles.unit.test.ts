import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingMantineStyles } from '../../mantine-styles-check.ts';

const require = createRequire(import.meta.url);

describe('mantine-styles.css', () => {
  it("imports Mantine's component styles in the order of Mantine's own styles.css", () => {
    const ours = readFileSync(path.join(import.meta.dirname, 'mantine-styles.css'), 'utf8');
    const imported = [...ours.matchAll(/@import "(@mantine\/core\/styles\/[^"]+)";/g)].map(
      (match) => match[1] ?? '',
    );
    expect(imported.length).toBeGreaterThan(10);
    const whole = readFileSync(require.resolve('@mantine/core/styles.css'), 'utf8');
    // Where each file's text starts inside Mantine's whole stylesheet.
    const positions = imported.map((name) =>
      whole.indexOf(readFileSync(require.resolve(name), 'utf8').slice(0, 300)),
    );
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((left, right) => left - right));
  });
});

describe('missingMantineStyles', () => {
  const stylesheets = [
    { name: '@mantine/core/styles/Button.css', classes: new Set(['m_77c9d27d']) },
    { name: '@mantine/core/styles/Tabs.css', classes: new Set(['m_576c9d4']) },
  ];
  const css = (source: string) => ({ type: 'asset' as const, source });
  const chunk = (
    code: string,
    imports: string[],
    dynamicImports: string[],
    importedCss: string[],
  ) => ({
    type: 'chunk' as const,
    code,
    imports,
    dynamicImports,
    viteMetadata: { importedCss: new Set(importedCss) },
  });

  it('names each class the entry and the code it loads use that none of their stylesheets define', () => {
    const bundle = {
      'main.js': chunk('a("m_77c9d27d")', ['common.js'], ['page.js'], ['main.css']),
      'common.js': chunk('', [], [], []),
      'page.js': chunk('b("m_576c9d4 m_12345678")', [], [], []),
      'landing.js': chunk('c("m_576c9d4")', [], [], ['landing.css']),
      'main.css': css('.m_77c9d27d{color:red}'),
      'landing.css': css('.m_576c9d4{color:red}'),
    };
    expect(missingMantineStyles(bundle, 'main.js', stylesheets)).toEqual([
      { className: 'm_576c9d4', stylesheet: '@mantine/core/styles/Tabs.css' },
    ]);
  });

  it('finds nothing missing when a lazily loaded chunk brings its own stylesheet', () => {
    const bundle = {
      'main.js': chunk('a("m_77c9d27d")', [], ['page.js'], ['main.css']),
      'page.js': chunk('b("m_576c9d4")', [], [], ['page.css']),
      'main.css': css('.m_77c9d27d{color:red}'),
      'page.css': css('.m_576c9d4:where([data-x]){color:red}'),
    };
    expect(missingMantineStyles(bundle, 'main.js', stylesheets)).toEqual([]);
  });
});
