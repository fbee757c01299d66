import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = path.join(import.meta.dirname, '../../../scripts/check-literal-text.mjs');
let directory: string | undefined;
afterEach(() => {
  if (directory) rmSync(directory, { recursive: true, force: true });
});

/** Runs the lint on one component; its exit code and what it printed. */
function check(source: string): { exitCode: number; output: string } {
  directory = mkdtempSync(path.join(tmpdir(), 'literal-text-'));
  writeFileSync(path.join(directory, 'page.tsx'), source);
  try {
    execFileSync(process.execPath, [script, directory], { encoding: 'utf8', stdio: 'pipe' });
    return { exitCode: 0, output: '' };
  } catch (error) {
    const failed = error as { status: number; stderr: string };
    return { exitCode: failed.status, output: failed.stderr };
  }
}

describe('scripts/check-literal-text.mjs', () => {
  it('refuses words written into JSX, and says where and what to do', () => {
    const { exitCode, output } = check('export const Page = () => <Title>Send money</Title>;\n');
    expect(exitCode).toBe(1);
    expect(output).toContain('page.tsx:1: "Send money"');
    expect(output).toContain('wrap them in <Trans>');
  });

  it('refuses a literal in a prop people read, also in a conditional', () => {
    const { exitCode, output } = check(
      'export const F = ({ on }) => <><Input label="Amount" /><B aria-label={on ? "Open" : "Shut"} /></>;\n',
    );
    expect(exitCode).toBe(1);
    expect(output).toContain('"Amount"');
    expect(output).toContain('"Open"');
    expect(output).toContain('"Shut"');
  });

  it('passes messages, values and text with no words', () => {
    const { exitCode } = check(
      [
        'export const Page = ({ name }) => (',
        '  <Stack gap="md" variant="light">',
        '    <Trans>Sent to <b>{name}</b></Trans>',
        '    <Input label={t`Amount`} />',
        '    <Text>{name} — 404 •</Text>',
        '    <Brand>Coffer</Brand>',
        '  </Stack>',
        ');',
      ].join('\n'),
    );
    expect(exitCode).toBe(0);
  });
});
