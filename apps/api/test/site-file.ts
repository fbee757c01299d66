import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Writes an operator's site file (COFFER_SITE_FILE) to a directory of its own. */
export function writeTestSiteFile(content: unknown): { path: string; remove: () => void } {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'coffer-site-'));
  const filePath = path.join(directory, 'site.json');
  writeFileSync(filePath, JSON.stringify(content));
  return { path: filePath, remove: () => rmSync(directory, { recursive: true, force: true }) };
}
