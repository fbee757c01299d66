import type { Readable } from 'node:stream';
import {
  type DataExport,
  type DataExportOverview,
  dataExportLifetimeDays,
} from '@coffer/contracts/data-exports';
import type { Site } from '@coffer/contracts/site';
import type { FastifyBaseLogger } from 'fastify';
import { findUserById } from '../../customers/queries.ts';
import type { Database } from '../../db/client.ts';
import type { IbanScheme } from '../../platform/account-iban.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { newId } from '../../platform/ids.ts';
import { storedLanguage } from '../../platform/languages.ts';
import type { Mailer } from '../../platform/mail.ts';
import { notify } from '../../platform/notifications.ts';
import type { SessionContext } from '../../platform/sessions.ts';
import type { DocumentStorage } from '../kyc/storage.ts';
import { reauthenticate } from '../profile/service.ts';
import { exportSections, readmeText } from './contents.ts';
import {
  allowDownload,
  claimBuild,
  type DataExportRow,
  expireReadyExports,
  failExhaustedBuilds,
  findOwnExport,
  insertOrFindBuilding,
  latestExportOf,
  markReady,
  postponeBuild,
  recordProgress,
} from './queries.ts';
import { writeZip } from './zip.ts';

const dayMs = 24 * 60 * 60 * 1000;
const exportLifetimeMs = dataExportLifetimeDays * dayMs;
/** After the password, this session may start the download for this long. */
export const downloadAllowanceMs = 5 * 60 * 1000;
/** A build not finished after this long (its process died) is taken up again. */
const buildLeaseMs = 30 * 60 * 1000;
/** A build that failed waits this long before its next try. */
const buildRetryDelayMs = 60 * 1000;
const buildAttemptsMax = 3;
/** Builds per run of the job: the runner's other jobs wait while one runs. */
const buildsPerRunMax = 3;
const expiredPerBatch = 100;
/** README.txt, then each section. */
const sectionsTotal = exportSections.length + 1;

export type DataExportDeps = {
  db: Database;
  /** Where export zips are kept: the KYC documents' encrypted storage, in a folder of its own. */
  exports: DocumentStorage;
  /** The identity documents themselves, read into the zip. */
  documents: DocumentStorage;
  config: {
    publicUrl: string;
    timeZone: string;
    ibanScheme: IbanScheme | null;
    isSandbox: boolean;
  };
  site: Site;
  mailer: Mailer;
  log: FastifyBaseLogger;
};

function isPastExpiry(row: DataExportRow, now: Date): boolean {
  return row.expires_at !== null && row.expires_at.getTime() <= now.getTime();
}

/** The export as the page shows it: a ready one past its seven days reads as expired. */
function toDataExport(row: DataExportRow, now: Date): DataExport {
  const status = row.status === 'ready' && isPastExpiry(row, now) ? 'expired' : row.status;
  return {
    id: row.id,
    status,
    sectionsDone: row.sections_done,
    sectionsTotal: row.sections_total,
    requestedAt: row.requested_at.toISOString(),
    readyAt: row.ready_at?.toISOString() ?? null,
    expiresAt: row.expires_at?.toISOString() ?? null,
    sizeBytes: row.size_bytes === null ? null : row.size_bytes.toString(),
  };
}

export async function dataExportOverview(
  deps: Pick<DataExportDeps, 'db'>,
  userId: string,
  now = new Date(),
): Promise<DataExportOverview> {
  const latest = await latestExportOf(deps.db, userId);
  return { latest: latest ? toDataExport(latest, now) : null };
}

/**
 * Asks for an export. While one is building, asking again (twice at once included)
 * answers that one: one zip is built.
 */
export async function requestDataExport(
  deps: Pick<DataExportDeps, 'db'>,
  session: SessionContext,
  ipAddress: string,
  now = new Date(),
): Promise<DataExport> {
  const row = await deps.db.transaction(async (tx) => {
    const found = await insertOrFindBuilding(tx, {
      id: newId(),
      userId: session.userId,
      sectionsTotal,
    });
    if (found.isNew) {
      await recordAudit(tx, {
        action: 'data_export_requested',
        actorUserId: session.userId,
        subjectUserId: session.userId,
        after: { exportId: found.row.id },
        ipAddress,
      });
    }
    return found.row;
  });
  return toDataExport(row, now);
}

/** The customer's own ready export, or the refusal that says why it cannot be had. */
async function downloadableExport(
  deps: Pick<DataExportDeps, 'db'>,
  userId: string,
  exportId: string,
  now: Date,
): Promise<DataExportRow> {
  const row = await findOwnExport(deps.db, exportId, userId);
  if (!row) throw new AppError('not_found');
  if (row.status === 'expired' || isPastExpiry(row, now)) {
    throw new AppError('data_export_expired');
  }
  if (row.status !== 'ready') throw new AppError('data_export_not_ready');
  return row;
}

/**
 * The password again, as every security change asks it (profile's `reauthenticate`):
 * then this session, and only it, may download the export for a few minutes (ADR 049).
 */
export async function unlockDownload(
  deps: Pick<DataExportDeps, 'db'>,
  session: SessionContext,
  exportId: string,
  currentPassword: string,
  now = new Date(),
): Promise<{ downloadUrl: string; allowedUntil: string }> {
  await downloadableExport(deps, session.userId, exportId, now);
  const user = await findUserById(deps.db, session.userId);
  if (!user) throw new AppError('unauthenticated');
  await reauthenticate(user, currentPassword);
  const allowedUntil = new Date(now.getTime() + downloadAllowanceMs);
  const allowed = await allowDownload(deps.db, {
    exportId,
    userId: session.userId,
    sessionId: session.sessionId,
    allowedUntil,
  });
  if (!allowed) throw new AppError('data_export_expired');
  return {
    downloadUrl: `/api/v1/data-exports/${exportId}/download`,
    allowedUntil: allowedUntil.toISOString(),
  };
}

/**
 * Opens the zip for this session, which gave the password a few minutes before; the
 * download is in the audit log. The storage checks the whole file before the first byte.
 */
export async function openDownload(
  deps: Pick<DataExportDeps, 'db' | 'exports'>,
  session: SessionContext,
  exportId: string,
  ipAddress: string,
  now = new Date(),
): Promise<{ stream: Readable; sizeBytes: bigint; fileName: string }> {
  const row = await downloadableExport(deps, session.userId, exportId, now);
  const isAllowed =
    row.download_session_id === session.sessionId &&
    row.download_allowed_until !== null &&
    row.download_allowed_until.getTime() > now.getTime();
  if (!isAllowed) throw new AppError('reauthentication_required');
  if (row.storage_key === null || row.secret_key_id === null || row.size_bytes === null) {
    throw new Error(`ready export ${row.id} has no file`);
  }
  const stream = await deps.exports.read(row.storage_key, row.secret_key_id);
  await recordAudit(deps.db, {
    action: 'data_export_downloaded',
    actorUserId: session.userId,
    subjectUserId: session.userId,
    after: { exportId: row.id, sizeBytes: row.size_bytes.toString() },
    ipAddress,
  });
  const day = (row.ready_at ?? now).toISOString().slice(0, 10);
  return { stream, sizeBytes: row.size_bytes, fileName: `coffer-data-${day}.zip` };
}

/** Writes one export's zip: README.txt, then every section, its progress recorded after each. */
async function buildZip(deps: DataExportDeps, row: DataExportRow, storageKey: string) {
  const language = await storedLanguage(deps.db, { userId: row.user_id });
  const context = {
    db: deps.db,
    documents: deps.documents,
    userId: row.user_id,
    config: deps.config,
    language,
  };
  return writeZip(deps.exports, storageKey, async (zip) => {
    const readme = readmeText({
      institutionName: deps.site.institutionName,
      createdAt: row.requested_at,
      isSandbox: deps.config.isSandbox,
      language,
    });
    await zip.add({ name: 'README.txt', content: async () => [readme] });
    let sectionsDone = 1;
    await recordProgress(deps.db, row.id, sectionsDone);
    for (const section of exportSections) {
      for await (const file of section.files(context)) await zip.add(file);
      sectionsDone += 1;
      await recordProgress(deps.db, row.id, sectionsDone);
    }
  });
}

function readyNotification(row: DataExportRow, expiresAt: Date, institutionName: string) {
  const until = expiresAt.toISOString().slice(0, 10);
  return {
    userId: row.user_id,
    kind: 'data_export_ready' as const,
    text: `Your data export is ready to download until ${until}.`,
    link: '/profile/export',
    email: {
      subject: `Your data export from ${institutionName} is ready`,
      text: [
        `The export of your data you asked for is ready. You can download it for ${dataExportLifetimeDays} days, until ${until}, after entering your password again.`,
        '',
        'If you did not ask for it, change your password and sign out your other sessions on your profile.',
      ].join('\n'),
    },
  };
}

/** Claims and builds one export; false when none was waiting. */
async function buildNext(deps: DataExportDeps, now: Date): Promise<boolean> {
  const storageKey = newId();
  const claimed = await claimBuild(deps.db, {
    now,
    leaseMs: buildLeaseMs,
    attemptsMax: buildAttemptsMax,
    storageKey,
  });
  if (!claimed) return false;
  const { row, previousStorageKey } = claimed;
  // A try cut short by a crash may have left part of a file.
  if (previousStorageKey) await deps.exports.remove(previousStorageKey);
  try {
    const stored = await buildZip(deps, row, storageKey);
    const expiresAt = new Date(now.getTime() + exportLifetimeMs);
    const isReady = await deps.db.transaction(async (tx) => {
      const ready = await markReady(tx, {
        exportId: row.id,
        storageKey,
        ...stored,
        now,
        expiresAt,
      });
      if (!ready) return false;
      await notify(tx, readyNotification(row, expiresAt, deps.site.institutionName), deps.config);
      return true;
    });
    // Another run took the build over (this one outlived its lease): its file is the one.
    if (!isReady) await deps.exports.remove(storageKey);
    else deps.mailer.kick();
  } catch (error) {
    deps.log.error({ err: error, exportId: row.id }, 'data export build failed');
    await postponeBuild(deps.db, {
      exportId: row.id,
      storageKey,
      retryAt: new Date(now.getTime() + buildRetryDelayMs),
    });
  }
  return true;
}

/** The build job's run: gives up on exhausted builds, then builds the waiting exports. */
export async function buildDueExports(deps: DataExportDeps, now: Date): Promise<void> {
  for (const failed of await failExhaustedBuilds(deps.db, buildAttemptsMax, now)) {
    if (failed.storage_key) await deps.exports.remove(failed.storage_key);
  }
  for (let built = 0; built < buildsPerRunMax; built++) {
    if (!(await buildNext(deps, now))) return;
  }
}

/** The expiry job's run: exports past their seven days are marked expired, then removed. */
export async function removeExpiredExports(
  deps: Pick<DataExportDeps, 'db' | 'exports'>,
  now: Date,
): Promise<void> {
  for (;;) {
    const expired = await expireReadyExports(deps.db, now, expiredPerBatch);
    for (const row of expired) {
      if (row.storage_key) await deps.exports.remove(row.storage_key);
    }
    if (expired.length < expiredPerBatch) return;
  }
}
