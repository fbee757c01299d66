import { readFileSync } from 'node:fs';
import type { Language } from '@coffer/contracts/languages';
import type { Site } from '@coffer/contracts/site';
import { type SiteFile, siteFileSchema } from '@coffer/contracts/site-file';
import { ConfigError } from '../../config.ts';
import { sandboxSampleSite } from './sandbox-site.ts';

const defaultSite: SiteFile = { institutionName: 'Coffer' };

/**
 * The operator's description of their institution (COFFER_SITE_FILE, JSON), checked at
 * start-up: a bad field stops it with the field's path. Without a file only the name
 * "Coffer" is known, and public pages leave every other section out; a sandbox describes
 * itself instead (sandbox-site.ts). Its `terms` are the terms and privacy notice customers
 * accept (features/terms); its `translations`, its texts in other languages (`siteIn`).
 */
export function loadSite(siteFile: string | undefined, options: { isSandbox: boolean }): SiteFile {
  if (!siteFile) return options.isSandbox ? sandboxSampleSite : defaultSite;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(siteFile, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  COFFER_SITE_FILE: cannot read ${siteFile} (${(error as Error).message})`,
    );
  }
  const parsed = siteFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(
      `Invalid configuration:\n  COFFER_SITE_FILE ${siteFile}:\n    ${problems.join('\n    ')}`,
    );
  }
  return parsed.data;
}

/**
 * What the public pages say in `language`: each of the file's texts in that language where
 * the operator wrote one, else as the file has it, field by field.
 */
export function siteIn(siteFile: SiteFile, language: Language): Site {
  const { terms: _terms, translations, ...site } = siteFile;
  return { ...site, ...translations?.[language] };
}
