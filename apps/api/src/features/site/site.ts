import { readFileSync } from 'node:fs';
import { type Site, siteSchema } from '@coffer/contracts/site';
import { ConfigError } from '../../config.ts';

const defaultSite: Site = { institutionName: 'Coffer' };

/**
 * The operator's description of their institution (COFFER_SITE_FILE, JSON). Without a
 * file only the name "Coffer" is known, and public pages leave every other section out.
 */
export function loadSite(siteFile: string | undefined): Site {
  if (!siteFile) return defaultSite;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(siteFile, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  COFFER_SITE_FILE: cannot read ${siteFile} (${(error as Error).message})`,
    );
  }
  const parsed = siteSchema.safeParse(raw);
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
