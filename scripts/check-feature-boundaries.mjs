// Fails `npm run lint` when a feature reaches into another feature outside the allowed
// directions, on the web and in the API, and when any source file of the API is part of an
// import cycle (`import type` and `export … from` included).
//
// Web: a feature may use another only through that feature's public entry
// (features/<name>/index.ts) and only in a direction listed below; components/ and lib/ are
// shared by all features and so may import none. app/ and the entry files beside it compose
// the features (router, shell, server rendering) and may import any of them.
//
// API: a feature (apps/api/src/features/<name>/) may import another only in a direction
// listed in `allowedApiFeatureImports`; the modules below the features (approvals/,
// customers/, money-out/, ledger/, platform/, db/, config.ts) may import no feature; app.ts,
// main.ts and cli/ compose the features and may import any. Tests are held to the same table.
//
// Both tables must be acyclic, which this script checks too. Biome's noRestrictedImports
// matches import text, not resolved paths, so it cannot tell "../api.ts" in one feature
// from "../../payouts/api.ts" in another at every folder depth, nor see cycles.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Web feature -> the features whose index.ts it may import. Keep it acyclic. */
export const allowedFeatureImports = {
  admin: [
    // A closed account's card, with its reopening (ADR 050).
    'account-closure',
    'audit',
    'bulk-payments',
    'cards',
    'deposits',
    'disputes',
    'kyc',
    'loans',
    'payouts',
    'staff-home',
    'support',
  ],
  // Sign-up shows the terms and privacy notice to accept.
  auth: ['terms'],
  // Pay Bills, Withdraw and Quick Pay offer saved payees first.
  bills: ['payees'],
  'bulk-payments': ['step-up'],
  loans: ['step-up'],
  payees: ['step-up'],
  payouts: ['payees', 'step-up'],
  // The activity list names each action as the audit log does.
  profile: ['audit', 'notifications'],
  // A statement is of one wallet: the customer picks it from their list (issue #33).
  statements: ['wallet'],
  transfers: ['payees', 'payouts', 'step-up'],
  wallet: ['kyc', 'transfers'],
};

/**
 * API feature -> the features it may import. Keep it acyclic and short: a concept several
 * features need gets a module of its own beside ledger/ (approvals/, customers/,
 * money-out/) instead of a new line here.
 */
export const allowedApiFeatureImports = {
  // Closing asks for the password again (profile) of the signed-in customer (auth) and
  // cancels the customer's schedules with that feature's own statements (ADR 050).
  'account-closure': ['auth', 'profile', 'scheduled-payments'],
  // Tests make users with auth's insertUser; the customer page shows the loan balance and
  // the wallet's lines as the customer sees them.
  admin: ['auth', 'loans', 'wallet'],
  // Sign-up checks and records the terms accepted with the new account.
  auth: ['terms'],
  // A file's recipients are looked up as Quick Pay looks one up; confirming needs a code.
  'bulk-payments': ['step-up', 'transfers'],
  // A refund is a staff deposit: a money request of the deposits feature. A dispute about
  // a card purchase may freeze the card, with the cards feature's own freeze.
  disputes: ['cards', 'deposits'],
  // Batch files mark payouts sent; statement credits become deposit requests; a card
  // settlement file is of a day in the institution's time zone, as the books count days.
  'payment-files': ['books', 'deposits', 'payouts'],
  loans: ['step-up'],
  payouts: ['step-up'],
  // A payee is checked as the form it fills checks it: Quick Pay's recipient look-up (and
  // its limit), the withdrawal's destination and key; adding one needs a step-up code.
  payees: ['payouts', 'step-up', 'transfers'],
  // An export holds the identity documents (read from KYC's storage, which also keeps the
  // zips), every transaction (the statements' reader) and asks the password as the profile does.
  'data-export': ['kyc', 'profile', 'statements'],
  // Email change and password change: auth's tokens, emails and password rules.
  profile: ['auth'],
  // The reports read the queues' sizes as the staff home counts them.
  reports: ['staff-home'],
  // A scheduled payment is paid by the very service of the payment it is: Quick Pay, Pay
  // Bills or Withdraw (ADR 045).
  'scheduled-payments': ['bills', 'payouts', 'transfers'],
  // The demo history's days are closed by the books' own close.
  sandbox: ['auth', 'books'],
  statements: ['wallet'],
  // Step-up spends and gives back login attempts (auth's throttle).
  'step-up': ['auth'],
  transfers: ['step-up'],
};

/** Web folders every feature uses, which therefore may import no feature. */
const sharedFolders = ['components', 'lib'];
/** API modules below the features, which therefore may import no feature. */
const apiSharedModules = [
  'approvals',
  'customers',
  'money-out',
  'ledger',
  'platform',
  'db',
  'config.ts',
];

const root = fileURLToPath(new URL('../', import.meta.url));
const webSource = path.join(root, 'apps/web/src');
const webFeatures = path.join(webSource, 'features');
const apiSource = path.join(root, 'apps/api/src');
const apiFeatures = path.join(apiSource, 'features');
const importPattern =
  /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+|^\s*export\s+\*\s+from\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

function sourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The file an import names: as written, or with .ts/.tsx or /index.ts added. */
function resolved(importer, specifier) {
  const target = path.resolve(path.dirname(importer), specifier);
  for (const candidate of [
    target,
    `${target}.ts`,
    `${target}.tsx`,
    path.join(target, 'index.ts'),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return target;
}

/** Every relative import of every file: [importer, imported file, specifier, line]. */
function importsOf(files) {
  const found = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(importPattern)) {
      const line = text.slice(0, match.index).split('\n').length;
      found.push({ importer: file, imported: resolved(file, match[1]), specifier: match[1], line });
    }
  }
  return found;
}

/** The first level below `folder` a path lies in (a folder or a file name), or null outside. */
function topOf(folder, file) {
  const relative = path.relative(folder, file);
  if (relative.startsWith('..')) return null;
  return relative.split(path.sep)[0];
}

function webProblem(importer, imported) {
  const from = topOf(webFeatures, importer);
  const to = topOf(webFeatures, imported);
  if (to === null || from === to) return null;
  if (from === null) {
    const area = topOf(webSource, importer);
    return sharedFolders.includes(area)
      ? `${area}/ is shared by every feature and may not import one`
      : null;
  }
  if (!(allowedFeatureImports[from] ?? []).includes(to)) {
    return `features/${from} may not use features/${to} (allowed: allowedFeatureImports in scripts/check-feature-boundaries.mjs)`;
  }
  if (imported !== path.join(webFeatures, to, 'index.ts')) {
    return `import features/${to}/index.ts, not its internals`;
  }
  return null;
}

function apiProblem(importer, imported) {
  const from = topOf(apiFeatures, importer);
  const to = topOf(apiFeatures, imported);
  if (to === null || from === to) return null;
  if (from === null) {
    const area = topOf(apiSource, importer);
    return apiSharedModules.includes(area)
      ? `${area} is below the features and may not import one (features/${to})`
      : null;
  }
  if (!(allowedApiFeatureImports[from] ?? []).includes(to)) {
    return `features/${from} may not use features/${to} (allowed: allowedApiFeatureImports in scripts/check-feature-boundaries.mjs; a concept several features share gets a module beside ledger/)`;
  }
  return null;
}

/** The cycles of a directed graph (Map node -> Set of nodes): its strongly connected parts. */
function cyclesOf(graph) {
  const indexOf = new Map();
  const lowOf = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let counter = 0;
  function visit(node) {
    indexOf.set(node, counter);
    lowOf.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        lowOf.set(node, Math.min(lowOf.get(node), lowOf.get(next)));
      } else if (onStack.has(next)) {
        lowOf.set(node, Math.min(lowOf.get(node), indexOf.get(next)));
      }
    }
    if (lowOf.get(node) !== indexOf.get(node)) return;
    const part = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1 || (graph.get(node) ?? new Set()).has(node)) cycles.push(part.sort());
  }
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return cycles;
}

function tableCycles(table) {
  return cyclesOf(new Map(Object.entries(table).map(([from, tos]) => [from, new Set(tos)])));
}

const problems = [];
const where = (found) =>
  `${path.relative(process.cwd(), found.importer)}:${found.line} ${found.specifier}`;

for (const found of importsOf(sourceFiles(webSource))) {
  const problem = webProblem(found.importer, found.imported);
  if (problem !== null) problems.push(`${where(found)}: ${problem}`);
}

const apiFiles = sourceFiles(apiSource);
const apiImports = importsOf(apiFiles);
for (const found of apiImports) {
  const problem = apiProblem(found.importer, found.imported);
  if (problem !== null) problems.push(`${where(found)}: ${problem}`);
}

for (const [name, table] of [
  ['allowedFeatureImports (web)', allowedFeatureImports],
  ['allowedApiFeatureImports', allowedApiFeatureImports],
]) {
  for (const cycle of tableCycles(table)) {
    problems.push(`${name} has a cycle: ${cycle.join(' ↔ ')}; the table must be acyclic`);
  }
}

const fileGraph = new Map(apiFiles.map((file) => [file, new Set()]));
for (const found of apiImports) {
  if (fileGraph.has(found.imported)) fileGraph.get(found.importer).add(found.imported);
}
for (const cycle of cyclesOf(fileGraph)) {
  const names = cycle.map((file) => path.relative(apiSource, file));
  problems.push(`apps/api/src: import cycle between ${names.join(', ')}`);
}

for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(
    `${problems.length} problem(s) with the feature boundaries (scripts/check-feature-boundaries.mjs).`,
  );
  process.exit(1);
}
