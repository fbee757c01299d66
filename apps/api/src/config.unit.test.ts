import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('configuration', () => {
  it('defaults to a sandbox on PGlite on port 3000', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, databaseUrl: undefined, isSandbox: true });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT: /);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL: must be a postgres:\/\/ URL/,
    );
    expect(() => loadConfig({ COFFER_SANDBOX: 'maybe' })).toThrow(/COFFER_SANDBOX: must be 1 or 0/);
  });

  it('refuses sandbox mode, default secrets and plain HTTP in production', () => {
    const production = {
      NODE_ENV: 'production',
      COFFER_SECRET_KEY: 'x'.repeat(32),
      COFFER_PUBLIC_URL: 'https://bank.example.org',
    };
    expect(() => loadConfig({ ...production, COFFER_SANDBOX: '1' })).toThrow(
      /COFFER_SANDBOX: must be 0 in production/,
    );
    expect(() => loadConfig({ ...production, COFFER_SECRET_KEY: undefined })).toThrow(
      /COFFER_SECRET_KEY: required in production/,
    );
    expect(() =>
      loadConfig({ ...production, COFFER_PUBLIC_URL: 'http://bank.example.org' }),
    ).toThrow(/COFFER_PUBLIC_URL: production needs the https/);
    expect(loadConfig(production)).toMatchObject({ isSandbox: false, isHttps: true });
  });
});
