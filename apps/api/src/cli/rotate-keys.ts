// npm run rotate-keys [-- --batch-size 100]
// Re-encrypts authenticator secrets, identity documents and webhook secrets under the last key of
// COFFER_SECRET_KEY, with the server's settings; safe while the server runs on PostgreSQL
// (stop it first on PGlite). Ctrl-C stops after the batch in progress; run it again to go
// on. docs/OPERATIONS.md, "Key rotation".
import { parseArgs } from 'node:util';
import { ConfigError } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { kycDocumentsDirectory, localDocumentStorage } from '../features/kyc/storage.ts';
import { describeUse, refuseMissingKeys, rotateSecretKeys } from '../key-rotation.ts';
import { fail, loadConfigOrFail } from './settings.ts';

const batchSizeMax = 1_000;

const { values } = parseArgs({ options: { 'batch-size': { type: 'string', default: '100' } } });
const batchSize = Number(values['batch-size']);
if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > batchSizeMax) {
  fail(`--batch-size: a whole number from 1 to ${batchSizeMax}`);
}

const config = loadConfigOrFail();

const describe = describeUse;

const db = await openDatabase({
  databaseUrl: config.databaseUrl,
  poolSize: 2,
  dataDir: config.dataDir,
});
let isDone = false;
try {
  await migrate(db);
  await refuseMissingKeys(db, config.secretKeys);
  const stopping = new AbortController();
  const stop = () => {
    console.log('Stopping after the batch in progress…');
    stopping.abort();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const keyId = config.secretKeys.current.id;
  console.log(`Re-encrypting under key ${keyId}, ${batchSize} records a batch.`);
  const report = await rotateSecretKeys(
    {
      db,
      secretKeys: config.secretKeys,
      storage: localDocumentStorage(kycDocumentsDirectory(config.dataDir), config.secretKeys),
    },
    {
      batchSize,
      signal: stopping.signal,
      onBatch: (rotated) => console.log(`  so far: ${describe(rotated)}`),
    },
  );
  // Exports are not re-encrypted but ended (ADR 049): said apart.
  console.log(`Re-encrypted under ${keyId}: ${describe({ ...report.rotated, dataExports: 0 })}.`);
  if (report.rotated.dataExports > 0) {
    console.log(
      `Ended ${report.rotated.dataExports} data exports an older key encrypted: their customers can ask for new ones.`,
    );
  }
  for (const [kind, ids] of Object.entries(report.refused)) {
    if (ids.length > 0) {
      console.error(
        `Refused (changed at rest, left as they were), ${kind}: ${ids.join(', ')}; restore them from a backup.`,
      );
    }
  }
  const remaining = Object.entries(report.remaining);
  for (const [oldKeyId, use] of remaining) {
    console.log(`Still under key ${oldKeyId}: ${describe(use)}.`);
  }
  if (!report.isComplete) console.log('Stopped before the end: run it again to go on.');
  isDone = remaining.length === 0;
  console.log(
    isDone
      ? 'Nothing needs an older key: remove them from COFFER_SECRET_KEY.'
      : 'Keep every older key above in COFFER_SECRET_KEY until a run leaves nothing under it.',
  );
} catch (error) {
  if (error instanceof ConfigError) console.error(error.message);
  else throw error;
} finally {
  await db.close();
}
process.exit(isDone ? 0 : 1);
