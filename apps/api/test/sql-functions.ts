import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const migrationsDir = path.join(apiDir, 'drizzle');
export const functionsDir = path.join(apiDir, 'src/db/functions');

// One function's definition, from CREATE to the semicolon after its body's closing $$.
const definitionPattern = /CREATE (?:OR REPLACE )?FUNCTION (\w+)\([\s\S]*?\$\$[\s\S]*?\$\$;/g;

/** A definition as written, without the OR REPLACE that only a later migration needs. */
function normalized(definition: string): string {
  return definition.replace(/^CREATE OR REPLACE FUNCTION/, 'CREATE FUNCTION').trim();
}

function definitionsIn(sql: string): Map<string, string> {
  return new Map(
    [...sql.matchAll(definitionPattern)].map((match) => [match[1] ?? '', normalized(match[0])]),
  );
}

/** Each SQL function's definition in the latest migration that creates or replaces it. */
export function latestMigrationDefinitions(): Map<string, string> {
  const journal = JSON.parse(readFileSync(path.join(migrationsDir, 'meta/_journal.json'), 'utf8'));
  const latest = new Map<string, string>();
  for (const { tag } of journal.entries as { tag: string }[]) {
    const sql = readFileSync(path.join(migrationsDir, `${tag}.sql`), 'utf8');
    for (const [name, definition] of definitionsIn(sql)) latest.set(name, definition);
  }
  return latest;
}

/** The definition kept in src/db/functions/<name>.sql, by name ('' when a file holds none). */
export function functionFileDefinitions(): Map<string, string> {
  return new Map(
    readdirSync(functionsDir)
      .filter((file) => file.endsWith('.sql'))
      .map((file) => {
        const sql = readFileSync(path.join(functionsDir, file), 'utf8');
        return [path.basename(file, '.sql'), definitionsIn(sql).values().next().value ?? ''];
      }),
  );
}

/** Every RAISE EXCEPTION in the function files: its SQLSTATE and, if any, its HINT. */
export function raisedSqlErrors(): {
  functionName: string;
  sqlState: string;
  hint: string | null;
}[] {
  return [...functionFileDefinitions()].flatMap(([functionName, definition]) =>
    [...definition.matchAll(/RAISE EXCEPTION USING ([\s\S]*?);/g)].map((match) => {
      const options = match[1] ?? '';
      const sqlState = /ERRCODE = '(\w+)'/.exec(options)?.[1];
      if (!sqlState) throw new Error(`${functionName} raises without an ERRCODE: ${options}`);
      return { functionName, sqlState, hint: /HINT = '(\w+)'/.exec(options)?.[1] ?? null };
    }),
  );
}
