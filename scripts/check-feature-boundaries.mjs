// Fails `npm run lint` when a web feature reaches into another feature's internals.
// A feature may use another only through that feature's public entry (features/<name>/index.ts)
// and only in a direction listed below; components/ and lib/ are shared by all features and
// so may import none. app/ and the entry files beside it compose the features (router, shell,
// server rendering) and may import any of them.
// Biome's noRestrictedImports matches import text, not resolved paths, so it cannot tell
// "../api.ts" in one feature from "../../payouts/api.ts" in another at every folder depth.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** feature -> the features whose index.ts it may import. Keep it acyclic. */
export const allowedFeatureImports = {
  admin: [
    'audit',
    'cards',
    'deposits',
    'disputes',
    'kyc',
    'loans',
    'payouts',
    'staff-home',
    'support',
  ],
  loans: ['step-up'],
  payouts: ['step-up'],
  profile: ['notifications'],
  transfers: ['payouts', 'step-up'],
  wallet: ['kyc', 'transfers'],
};

/** Folders every feature uses, which therefore may import no feature. */
const sharedFolders = ['components', 'lib'];

const webSource = fileURLToPath(new URL('../apps/web/src/', import.meta.url));
const featuresRoot = path.join(webSource, 'features');
const importPattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

function sourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The feature folder a path lies in, or null outside features/. */
function featureOf(file) {
  const relative = path.relative(featuresRoot, file);
  if (relative.startsWith('..')) return null;
  return relative.split(path.sep)[0];
}

function problemWith(importer, imported) {
  const from = featureOf(importer);
  const to = featureOf(imported);
  if (to === null || from === to) return null;
  if (from === null) {
    const area = path.relative(webSource, importer).split(path.sep)[0];
    return sharedFolders.includes(area)
      ? `${area}/ is shared by every feature and may not import one`
      : null;
  }
  if (!(allowedFeatureImports[from] ?? []).includes(to)) {
    return `features/${from} may not use features/${to} (allowed: scripts/check-feature-boundaries.mjs)`;
  }
  if (imported !== path.join(featuresRoot, to, 'index.ts')) {
    return `import features/${to}/index.ts, not its internals`;
  }
  return null;
}

const problems = [];
for (const file of sourceFiles(webSource)) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(importPattern)) {
    const imported = path.resolve(path.dirname(file), match[1]);
    const problem = problemWith(file, imported);
    if (problem === null) continue;
    const line = text.slice(0, match.index).split('\n').length;
    problems.push(`${path.relative(process.cwd(), file)}:${line} ${match[1]}: ${problem}`);
  }
}
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(`${problems.length} cross-feature import(s) break the web's feature boundaries.`);
  process.exit(1);
}
