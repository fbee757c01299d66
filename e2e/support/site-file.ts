import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SiteFile } from '@coffer/contracts/site-file';

/** Writes an operator configuration file (COFFER_SITE_FILE) to a temporary directory. */
export function writeSiteFile(site: SiteFile): { path: string; remove: () => void } {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'coffer-site-'));
  const filePath = path.join(directory, 'site.json');
  writeFileSync(filePath, `${JSON.stringify(site, null, 2)}\n`);
  return { path: filePath, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

/** A configuration with every optional section filled in, with obviously made-up values. */
export const fullSite = {
  institutionName: 'Harbour Test Credit Union',
  tagline: 'A test tagline from the site file.',
  contactEmail: 'hello@harbour.example',
  careersEmail: 'jobs@harbour.example',
  foundingYear: 1987,
  story:
    'Harbour Test began as a savings circle on the quay.\n\nThis story comes from the site file.',
  mission: 'Test mission: keep every member’s money safe and visible.',
  vision: 'Test vision: banking that anyone can audit.',
  whoWeAre: 'We are a member-owned test institution, configured for the browser tests.',
  leadership: [
    { name: 'Ada Testperson', role: 'Chief Executive' },
    { name: 'Grace Examplar', role: 'Head of Member Services' },
  ],
  quickLinks: [
    { label: 'Member handbook', url: 'https://harbour.example/handbook' },
    { label: 'Fee schedule', url: '/about' },
  ],
  // Texts in German; none in Japanese, whose pages show the file's own.
  translations: {
    de: {
      tagline: 'Ein Test-Slogan aus der Site-Datei, auf Deutsch.',
      story:
        'Harbour Test begann als Sparkreis am Kai.\n\nDiese Geschichte steht auf Deutsch in der Site-Datei.',
    },
  },
  terms: {
    version: '2026-11',
    termsOfService:
      'Harbour Test terms of service, from the site file.\n\nYour wallet holds money in your country’s currency.',
    privacyNotice:
      'Harbour Test privacy notice, from the site file: we keep what runs your account.',
  },
} satisfies SiteFile;
