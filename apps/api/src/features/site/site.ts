import { readFileSync } from 'node:fs';
import { type SiteFile, siteFileSchema } from '@coffer/contracts/site';
import { ConfigError } from '../../config.ts';

const defaultSite: SiteFile = { institutionName: 'Coffer' };

/**
 * The operator's description of their institution (COFFER_SITE_FILE, JSON). Without a
 * file only the name "Coffer" is known, and public pages leave every other section out.
 * Its `terms` are the terms and privacy notice customers accept (features/terms).
 */
export function loadSite(siteFile: string | undefined): SiteFile {
  if (!siteFile) return defaultSite;
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
