import { describe, expect, it } from 'vitest';
import { functionFileDefinitions, latestMigrationDefinitions } from '../../test/sql-functions.ts';

describe('SQL function files (src/db/functions)', () => {
  const inMigrations = latestMigrationDefinitions();
  const inFiles = functionFileDefinitions();

  it('has one file for every function the migrations create, and no other', () => {
    expect([...inFiles.keys()].sort()).toEqual([...inMigrations.keys()].sort());
  });

  it.each([...inMigrations])(
    '%s is defined as in the latest migration that defines it',
    (name, definition) => {
      expect(inFiles.get(name)).toBe(definition);
    },
  );
});
