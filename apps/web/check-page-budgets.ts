// A build step: after both builds, weighs every page's first-load JavaScript from the
// client's manifest and fails the build when a page is over its budget in budgets.json or
// has none (docs/decisions/021). The pages are the router's own, read from the server
// build, so a new route cannot be left out.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import type { Logger } from 'vite';
import {
  type AppPage,
  budgetProblems,
  type PageBudgets,
  pageWeights,
  weightTable,
} from './src/app/page-budgets.ts';
import type { BuildManifest } from './src/lib/build-manifest.ts';

const budgetsFile = path.join(import.meta.dirname, 'budgets.json');

export async function checkPageBudgets(options: {
  clientOutDir: string;
  appServerFile: string;
  logger: Logger;
}): Promise<void> {
  const { appPages }: { appPages?: AppPage[] } = await import(
    pathToFileURL(options.appServerFile).href
  );
  if (!appPages) throw new Error(`${options.appServerFile} does not export appPages`);
  const manifest = JSON.parse(
    readFileSync(path.join(options.clientOutDir, '.vite', 'manifest.json'), 'utf8'),
  ) as BuildManifest;
  const budgets = JSON.parse(readFileSync(budgetsFile, 'utf8')) as PageBudgets;
  // At gzip's highest level, as the build's .gz copies and the benchmark (bench/api) have it.
  const gzipBytesOf = (file: string) =>
    gzipSync(readFileSync(path.join(options.clientOutDir, file)), {
      level: constants.Z_BEST_COMPRESSION,
    }).length;
  const weights = pageWeights(manifest, appPages, gzipBytesOf, budgets);
  options.logger.info(
    `\nFirst-load JavaScript per page (budgets.json):\n${weightTable(weights)}\n`,
  );
  const problems = budgetProblems(weights, budgets);
  if (problems.length > 0) {
    throw new Error(`Page budgets exceeded or missing:\n  ${problems.join('\n  ')}`);
  }
}
