// COFFER_DATA_DIR holds the embedded database (every customer's email, password hash and
// ledger, in its tables and WAL) and the identity documents: no other account on the
// machine may read or write any of it. PGlite writes its files 0666 whatever the umask,
// so the directories' own 0700 is what keeps others out; loose files found are tightened
// too, so that copying the tree elsewhere does not open it again.
import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

export const ownerOnlyDirectoryMode = 0o700;
export const ownerOnlyFileMode = 0o600;

/** What `secureDataDirectory` had to tighten: counts, and a few of the paths as examples. */
export type TightenedModes = {
  directoryCount: number;
  fileCount: number;
  examples: string[];
};

const examplesMax = 5;

function isOpenToOthers(mode: number): boolean {
  return (mode & 0o077) !== 0;
}

/**
 * Creates `dataDir` owner-only when it is missing, and takes every permission for other
 * accounts off it and everything under it (directories 0700, files 0600). Symbolic links
 * are left alone, never followed. Throws when a mode cannot be changed (a directory owned
 * by another account): the server must not run on data others can read.
 */
export async function secureDataDirectory(dataDir: string): Promise<TightenedModes> {
  await mkdir(dataDir, { recursive: true, mode: ownerOnlyDirectoryMode });
  const tightened: TightenedModes = { directoryCount: 0, fileCount: 0, examples: [] };
  const visit = async (entry: string): Promise<void> => {
    const stats = await lstat(entry);
    if (stats.isSymbolicLink()) return;
    const isDirectory = stats.isDirectory();
    if (isOpenToOthers(stats.mode)) {
      await chmod(entry, isDirectory ? ownerOnlyDirectoryMode : ownerOnlyFileMode);
      if (isDirectory) tightened.directoryCount += 1;
      else tightened.fileCount += 1;
      if (tightened.examples.length < examplesMax) {
        tightened.examples.push(`${entry} (was ${(stats.mode & 0o777).toString(8)})`);
      }
    }
    if (isDirectory) {
      for (const name of await readdir(entry)) await visit(path.join(entry, name));
    }
  };
  await visit(dataDir);
  return tightened;
}

/** The warning for the log, or null when nothing needed tightening. */
export function describeTightenedModes(dataDir: string, tightened: TightenedModes): string | null {
  if (tightened.directoryCount === 0 && tightened.fileCount === 0) return null;
  return `other accounts could open the data directory ${dataDir}: took their permissions off ${tightened.directoryCount} directories (now 0700) and ${tightened.fileCount} files (now 0600), e.g. ${tightened.examples.join(', ')}`;
}
