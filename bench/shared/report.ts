import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../../apps/api/src/db/client.ts';

/** A plain-text table: the first column left-aligned, the others right-aligned. */
export function table(rows: string[][]): string {
  const widths = (rows[0] ?? []).map((_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? '').length)),
  );
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
        )
        .join('  '),
    )
    .join('\n');
}

function commandOutput(file: string, args: string[]): string | null {
  try {
    return execFileSync(file, args, { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/** The machine and the server settings that move the figures, for the results file. */
export async function describeMachine(admin: Database) {
  const settings = await admin.query<{ name: string; setting: string; unit: string | null }>(
    `SELECT name, setting, unit FROM pg_settings
      WHERE name IN ('server_version', 'shared_buffers', 'synchronous_commit', 'fsync',
                     'wal_level', 'max_wal_size', 'checkpoint_timeout', 'max_connections',
                     'autovacuum', 'wal_buffers', 'commit_delay')`,
  );
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? null,
    memoryMb: Math.round(os.totalmem() / 1024 / 1024),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    postgres: Object.fromEntries(
      settings.rows.map((row) => [row.name, row.unit ? `${row.setting} ${row.unit}` : row.setting]),
    ),
    pgbench: commandOutput(path.join(process.env.COFFER_PG_BIN_DIR ?? '', 'pgbench'), [
      '--version',
    ]),
  };
}
