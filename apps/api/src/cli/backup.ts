// npm run backup -- <directory>   a backup of the database and the identity documents
// npm run restore -- <directory>  that backup into an empty database and data directory
// Same settings as the server (DATABASE_URL, COFFER_DATA_DIR); docs/OPERATIONS.md.
import { loadConfig } from '../config.ts';
import { backUp, restore } from './backups.ts';

const [command, directory] = process.argv.slice(2);
if ((command !== 'backup' && command !== 'restore') || !directory) {
  console.error('Usage: npm run backup -- <directory>  |  npm run restore -- <directory>');
  process.exit(1);
}
try {
  const config = loadConfig();
  const location = { databaseUrl: config.databaseUrl, dataDir: config.dataDir };
  if (command === 'backup') {
    const manifest = await backUp(location, directory);
    console.log(`Backed up the ${manifest.database} database to ${directory}.`);
  } else {
    const manifest = await restore(location, directory);
    console.log(`Restored the ${manifest.database} backup of ${manifest.createdAt}. Start Coffer.`);
  }
} catch (error) {
  console.error(`${command} failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
