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
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://coffer@db1:5432,db2:5432/coffer' }),
    ).toThrow(/DATABASE_URL: must name one host: point it at HAProxy/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://coffer@db 1/coffer' })).toThrow(
      /DATABASE_URL: must be a URL/,
    );
    expect(() => loadConfig({ COFFER_SANDBOX: 'maybe' })).toThrow(/COFFER_SANDBOX: must be 1 or 0/);
  });

  it('refuses sandbox mode, default secrets and plain HTTP in production', () => {
    const production = {
      NODE_ENV: 'production',
      COFFER_SECRET_KEY: 'x'.repeat(32),
      COFFER_PUBLIC_URL: 'https://bank.example.org',
      SMTP_URL: 'smtps://mail.example.org',
    };
    expect(() => loadConfig({ ...production, COFFER_SANDBOX: '1' })).toThrow(
      /COFFER_SANDBOX: must be 0 in production/,
    );
    expect(() => loadConfig({ ...production, COFFER_SECRET_KEY: undefined })).toThrow(
      /COFFER_SECRET_KEY: required outside the sandbox/,
    );
    expect(() =>
      loadConfig({ ...production, COFFER_PUBLIC_URL: 'http://bank.example.org' }),
    ).toThrow(/COFFER_PUBLIC_URL: production needs the https/);
    expect(loadConfig(production)).toMatchObject({ isSandbox: false, isHttps: true });
    expect(() => loadConfig({ ...production, COFFER_WEBHOOKS_ALLOW_PRIVATE: '1' })).toThrow(
      /COFFER_WEBHOOKS_ALLOW_PRIVATE: must be 0 in production/,
    );
    expect(loadConfig(production).isWebhookToPrivateAllowed).toBe(false);
  });

  it('lets webhooks reach private addresses only when told, and reads the flag strictly', () => {
    expect(loadConfig({}).isWebhookToPrivateAllowed).toBe(false);
    expect(loadConfig({ COFFER_WEBHOOKS_ALLOW_PRIVATE: '1' }).isWebhookToPrivateAllowed).toBe(true);
    expect(() => loadConfig({ COFFER_WEBHOOKS_ALLOW_PRIVATE: 'sure' })).toThrow(
      /COFFER_WEBHOOKS_ALLOW_PRIVATE: must be 1 or 0/,
    );
  });

  it('refuses to start outside the sandbox on the published development key, whatever NODE_ENV says', () => {
    for (const environment of ['development', 'test', undefined]) {
      const outsideSandbox = {
        NODE_ENV: environment,
        COFFER_SANDBOX: '0',
        COFFER_MAIL: 'outbox-only',
      };
      expect(() => loadConfig(outsideSandbox), environment).toThrow(
        /COFFER_SECRET_KEY: required outside the sandbox/,
      );
      const secretKey = 'k'.repeat(32);
      expect(
        loadConfig({ ...outsideSandbox, COFFER_SECRET_KEY: secretKey }).secretKeys.current,
      ).toEqual({ id: 'legacy', material: secretKey });
    }
    // A sandbox (test money, demo users) may keep the development key.
    expect(loadConfig({ COFFER_SANDBOX: '1' }).secretKeys.current.material).toMatch(/development/);
  });

  it('refuses to start outside the sandbox without mail unless outbox-only is asked for', () => {
    const production = {
      NODE_ENV: 'production',
      COFFER_SANDBOX: '0',
      COFFER_SECRET_KEY: 'x'.repeat(32),
      COFFER_PUBLIC_URL: 'https://bank.example.org',
    };
    expect(() => loadConfig(production)).toThrow(
      /SMTP_URL: required outside the sandbox.*COFFER_MAIL=outbox-only/,
    );
    expect(() => loadConfig({ ...production, NODE_ENV: 'development' })).toThrow(/SMTP_URL: /);
    expect(
      loadConfig({ ...production, SMTP_URL: 'smtps://mail.example.org' }).isMailOutboxOnly,
    ).toBe(false);
    expect(loadConfig({ ...production, COFFER_MAIL: 'outbox-only' }).isMailOutboxOnly).toBe(true);
    expect(() => loadConfig({ ...production, COFFER_MAIL: 'none' })).toThrow(/COFFER_MAIL: /);
    expect(() =>
      loadConfig({ ...production, COFFER_MAIL: 'outbox-only', SMTP_URL: 'smtp://mail' }),
    ).toThrow(/COFFER_MAIL: outbox-only sends nothing, yet SMTP_URL is set/);
    // The sandbox shows its mail on its own page: no SMTP needed, nothing to warn about.
    expect(loadConfig({}).isMailOutboxOnly).toBe(false);
  });

  it('trusts no proxy unless told, and takes a hop count or a list of addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ COFFER_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ COFFER_TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ COFFER_TRUST_PROXY: '1' }).trustProxy).toEqual({ hopCount: 1 });
    expect(
      loadConfig({ COFFER_TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,::1, fd00::/8,loopback' })
        .trustProxy,
    ).toEqual({ addresses: ['10.0.0.0/8', '192.168.1.7', '::1', 'fd00::/8', 'loopback'] });
  });

  it('refuses to trust every proxy, and names addresses that are not ones', () => {
    expect(() => loadConfig({ COFFER_TRUST_PROXY: 'true' })).toThrow(
      /COFFER_TRUST_PROXY: trusting every address lets any client choose its own/,
    );
    expect(() =>
      loadConfig({ COFFER_TRUST_PROXY: '10.0.0.1, proxy.internal, 10.0.0.0/33' }),
    ).toThrow(
      /COFFER_TRUST_PROXY: "proxy.internal", "10.0.0.0\/33": not an IP address or CIDR range/,
    );
    expect(() => loadConfig({ COFFER_TRUST_PROXY: '99' })).toThrow(/COFFER_TRUST_PROXY: /);
  });

  it('serves the default sandbox only on a loopback address', () => {
    for (const host of ['127.0.0.1', '127.0.1.1', '::1', 'localhost']) {
      expect(loadConfig({ COFFER_HOST: host }).isSandbox).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'bank.example.org']) {
      expect(() => loadConfig({ COFFER_HOST: host })).toThrow(
        /COFFER_SANDBOX: sandbox mode .* is the default only on a loopback COFFER_HOST, not on .*; set COFFER_SANDBOX=1/,
      );
    }
    expect(loadConfig({ COFFER_HOST: '0.0.0.0', COFFER_SANDBOX: '1' }).isSandbox).toBe(true);
    expect(
      loadConfig({
        COFFER_HOST: '0.0.0.0',
        COFFER_SANDBOX: '0',
        COFFER_SECRET_KEY: 'k'.repeat(32),
        COFFER_MAIL: 'outbox-only',
      }).isSandbox,
    ).toBe(false);
  });

  it('maps account kinds to GL codes, the operator’s over the default, and names a bad key', () => {
    expect(loadConfig({}).glMap.customer).toEqual({ code: '2100', name: 'Customer deposits' });
    const changed = loadConfig({
      COFFER_GL_MAP: '{"customer":{"code":"20-100"},"fees":{"code":"7000","name":"Fees earned"}}',
    }).glMap;
    expect(changed.customer).toEqual({ code: '20-100', name: 'Customer deposits' });
    expect(changed.fees).toEqual({ code: '7000', name: 'Fees earned' });
    expect(changed.settlement.code).toBe('1010');
    expect(() => loadConfig({ COFFER_GL_MAP: '{"wallets":{"code":"1"}}' })).toThrow(
      /COFFER_GL_MAP: wallets: not an account kind/,
    );
    expect(() => loadConfig({ COFFER_GL_MAP: '{"fees":{"code":"=1+1"}}' })).toThrow(
      /COFFER_GL_MAP: fees.code: /,
    );
    expect(() => loadConfig({ COFFER_GL_MAP: '{"fees":"4100"}' })).toThrow(/COFFER_GL_MAP: fees: /);
    expect(() => loadConfig({ COFFER_GL_MAP: '[1]' })).toThrow(/COFFER_GL_MAP: must be a JSON/);
  });

  it("knows the institution's bank account: a test IBAN in the sandbox, a valid one elsewhere", () => {
    expect(loadConfig({}).bankAccount).toEqual({ iban: 'DE89370400440532013000', bic: undefined });
    expect(
      loadConfig({ COFFER_BANK_IBAN: 'nl91 abna 0417 1643 00', COFFER_BANK_BIC: 'ABNANL2A' })
        .bankAccount,
    ).toEqual({ iban: 'NL91ABNA0417164300', bic: 'ABNANL2A' });
    expect(() => loadConfig({ COFFER_BANK_IBAN: 'NL91ABNA0417164301' })).toThrow(
      /COFFER_BANK_IBAN: must be a valid IBAN/,
    );
    expect(() => loadConfig({ COFFER_BANK_BIC: 'abc' })).toThrow(/COFFER_BANK_BIC: must be a BIC/);
  });

  it('gives accounts IBANs only when told a country and bank code that fit them', () => {
    expect(loadConfig({}).ibanScheme).toBeNull();
    expect(loadConfig({ COFFER_IBAN: 'de:37040044' }).ibanScheme).toEqual({
      countryCode: 'DE',
      bankCode: '37040044',
      accountDigits: 10,
    });
    expect(() => loadConfig({ COFFER_IBAN: 'NL:1234' })).toThrow(
      /COFFER_IBAN: 1234 and a 10-digit account number do not make a NL account/,
    );
  });

  it('keeps the books in UTC unless told a real time zone', () => {
    expect(loadConfig({}).timeZone).toBe('UTC');
    expect(loadConfig({ COFFER_TIMEZONE: 'Europe/Berlin' }).timeZone).toBe('Europe/Berlin');
    expect(() => loadConfig({ COFFER_TIMEZONE: 'Mars/Olympus' })).toThrow(
      /COFFER_TIMEZONE: must be an IANA time zone/,
    );
  });

  it("takes the passkeys' relying party from the public origin, and has none for an IP address", () => {
    expect(loadConfig({ COFFER_PUBLIC_URL: 'https://bank.example.org' }).relyingParty).toEqual({
      id: 'bank.example.org',
      origin: 'https://bank.example.org',
    });
    expect(loadConfig({ COFFER_PUBLIC_URL: 'http://localhost:3000' }).relyingParty).toEqual({
      id: 'localhost',
      origin: 'http://localhost:3000',
    });
    expect(loadConfig({ COFFER_PUBLIC_URL: 'http://127.0.0.1:3000' }).relyingParty).toBeNull();
    expect(loadConfig({ COFFER_PUBLIC_URL: 'http://[::1]:3000' }).relyingParty).toBeNull();
  });
});
