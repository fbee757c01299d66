import { createHmac } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type GlMap, GlMapError, parseGlMap } from '@coffer/contracts/books';
import { type CurrencyCode, isCurrencyCode } from '@coffer/contracts/currencies';
import { markupBpMax } from '@coffer/contracts/exchange';
import { isLanguage, type Language, languages, sourceLanguage } from '@coffer/contracts/languages';
import { LimitsConfigError, type LimitsTable, parseLimitsTable } from '@coffer/contracts/limits';
import {
  defaultLoanTermsJson,
  type LoanTerms,
  LoanTermsError,
  parseLoanTerms,
} from '@coffer/contracts/loans';
import { MoneyParseError, parseAmount } from '@coffer/contracts/money';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { z } from 'zod';
import {
  FxConfigError,
  type FxSettings,
  fileRateSource,
  parseMarkups,
  type RateSource,
  sandboxRateSource,
} from './fx/rates.ts';
import { type IbanScheme, IbanSchemeError, parseIbanScheme } from './platform/account-iban.ts';
import { parseSecretKeys, type SecretKeys, SecretKeysError } from './platform/secret-keys.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const booleanFlag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'], { message: 'must be 1 or 0' })
  .transform((value) => value === '1' || value === 'true' || value === 'yes');

/**
 * A fee per wallet currency, as JSON of decimal amounts ('{"USD":"1.50","JPY":"200"}'). Each
 * amount is parsed in its own currency, so a wrong code or precision stops start-up.
 */
const feeScheduleSchema = z.string().transform((text, context) => {
  const fees = new Map<string, bigint>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  const schedule = z.record(z.string(), z.string()).safeParse(parsed);
  if (!schedule.success) {
    context.addIssue({ code: 'custom', message: 'must be a JSON object like {"USD":"1.50"}' });
    return fees;
  }
  for (const [currency, amount] of Object.entries(schedule.data)) {
    if (!isCurrencyCode(currency)) {
      context.addIssue({ code: 'custom', message: `${currency}: not an ISO 4217 currency code` });
      continue;
    }
    try {
      fees.set(currency, parseAmount(amount, currency));
    } catch (error) {
      if (!(error instanceof MoneyParseError)) throw error;
      context.addIssue({ code: 'custom', message: `${currency}: ${error.message}` });
    }
  }
  return fees;
});

const loopbackAddresses = new net.BlockList();
loopbackAddresses.addSubnet('127.0.0.0', 8, 'ipv4');
loopbackAddresses.addAddress('::1', 'ipv6');

/** Whether listening on `host` keeps the server to this machine. */
function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  const version = net.isIP(host);
  return version !== 0 && loopbackAddresses.check(host, version === 4 ? 'ipv4' : 'ipv6');
}

/** proxy-addr's names for the private ranges, accepted in a list of trusted proxies. */
const proxyRangeNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (proxyRangeNames.has(entry)) return true;
  const [address = '', prefixLength, ...rest] = entry.split('/');
  const version = net.isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefixLength === undefined) return true;
  const bitsMax = version === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(prefixLength) && Number(prefixLength) <= bitsMax;
}

/**
 * Which proxies may say who the client is (X-Forwarded-For, -Proto, -Host): nobody, the
 * nearest N hops, or a list of addresses and CIDR ranges. Trusting everyone is refused:
 * any client could then pick its own address and walk past every per-address limit.
 */
const trustProxySchema = z.string().transform((text, context): TrustProxy => {
  const value = text.trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) {
    const hopCount = Number(value);
    if (hopCount > 10) {
      context.addIssue({ code: 'custom', message: 'a hop count must be 10 or fewer' });
    }
    return { hopCount };
  }
  if (value === 'true') {
    context.addIssue({
      code: 'custom',
      message:
        'trusting every address lets any client choose its own: give the number of proxies in front of Coffer (1) or their addresses',
    });
    return false;
  }
  const addresses = value.split(',').map((entry) => entry.trim());
  const invalid = addresses.filter((entry) => !isAddressOrRange(entry));
  if (invalid.length > 0) {
    context.addIssue({
      code: 'custom',
      message: `${invalid.map((entry) => JSON.stringify(entry)).join(', ')}: not an IP address or CIDR range`,
    });
  }
  return { addresses };
});

/** PRODUCT.md section 5: a virtual card costs 100.00 USD; other currencies are free until configured. */
const defaultCardFees = '{"USD":"100.00"}';

/**
 * Requests per minute a customer may make to each money route (Quick Pay, payouts, bill
 * payments; platform/rate-limits.ts): far more than anyone confirms by hand, too few for a
 * script to hammer. COFFER_MONEY_REQUESTS_PER_MINUTE changes it.
 */
export const moneyRequestsPerMinuteDefault = 30;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  COFFER_HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    // pg reads one host: a list (host1,host2) is not a URL to it. A highly available set-up
    // gives the API one address that reaches the primary (docs/decisions/037).
    .refine(
      (url) => !/^postgres(ql)?:\/\/([^/@]*@)?[^/]*,/.test(url),
      'must name one host: point it at HAProxy, which finds the primary (docs/OPERATIONS.md), not at a list of nodes',
    )
    .refine((url) => URL.canParse(url), 'must be a URL, like postgres://user@host:5432/coffer')
    .optional(),
  COFFER_DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  COFFER_DATA_DIR: z.string().min(1).default(path.join(repoRoot, 'data')),
  COFFER_WEB_DIST: z.string().min(1).default(path.join(repoRoot, 'apps/web/dist')),
  COFFER_SANDBOX: booleanFlag.optional(),
  COFFER_TRUST_PROXY: trustProxySchema.optional(),
  COFFER_STAFF_TWO_FACTOR: booleanFlag.optional(),
  COFFER_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
  COFFER_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  COFFER_PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/]+$/, 'must be an origin like https://bank.example.org (no path)')
    .optional(),
  COFFER_SECRET_KEY: z.string().optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  COFFER_MAIL: z.enum(['outbox-only'], { message: 'must be outbox-only when set' }).optional(),
  COFFER_MAIL_FROM: z.string().min(3).default('Coffer <no-reply@localhost>'),
  COFFER_SITE_FILE: z.string().min(1).optional(),
  COFFER_PAYOUT_FEES: feeScheduleSchema.optional(),
  COFFER_CARD_FEES: feeScheduleSchema.prefault(defaultCardFees),
  COFFER_ISSUING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  COFFER_LIMITS: z.string().min(2).optional(),
  COFFER_FOUR_EYES_DAILY_TOTAL: z.string().min(2).optional(),
  COFFER_MONEY_REQUESTS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(moneyRequestsPerMinuteDefault),
  COFFER_KYC_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(90),
  // Years a closed customer's personal data is kept before the retention job removes it (ADR 050).
  COFFER_RETENTION_YEARS: z.coerce.number().int().min(1).max(100).default(10),
  COFFER_READ_NOTIFICATION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
  COFFER_SENT_EMAIL_DAYS: z.coerce.number().int().min(1).max(36_500).default(30),
  COFFER_LOAN_TERMS: z.string().min(2).optional(),
  COFFER_JOB_TICK_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  COFFER_BULK_PAYER: booleanFlag.optional(),
  COFFER_GL_MAP: z.string().min(2).optional(),
  COFFER_TIMEZONE: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone like Europe/Berlin or UTC')
    .default('UTC'),
  COFFER_BANK_IBAN: z
    .string()
    .transform((text) => electronicFormatIBAN(text) ?? '')
    .refine(isValidIBAN, 'must be a valid IBAN, like DE89370400440532013000')
    .optional(),
  COFFER_IBAN: z.string().min(1).optional(),
  COFFER_BANK_BIC: z
    .string()
    .regex(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, 'must be a BIC of 8 or 11 letters and digits')
    .optional(),
  COFFER_METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  COFFER_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  COFFER_WEBHOOKS_ALLOW_PRIVATE: booleanFlag.optional(),
  COFFER_CURRENCIES: z.string().min(3).optional(),
  COFFER_LANGUAGES: z
    .string()
    .transform((text) => [...new Set(text.split(',').map((code) => code.trim()))])
    .refine((codes) => codes.every(isLanguage), `must list languages among ${languages.join(', ')}`)
    .refine((codes) => codes.includes(sourceLanguage), `must include ${sourceLanguage}`)
    .transform((codes) => codes as Language[])
    .optional(),
  COFFER_FX_FILE: z.string().min(1).optional(),
  COFFER_FX_MARKUP: z.string().min(2).optional(),
  // The most a staff member may set on the rates page (basis points; 1000 is 10 %).
  COFFER_FX_MARKUP_MAX: z.coerce.number().int().min(0).max(markupBpMax).default(1_000),
  // Four days: the ECB publishes on working days, so Friday's rates serve over a long weekend.
  COFFER_FX_MAX_AGE: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(4 * 86_400),
});

/** How long finished rows are kept before the housekeeping job removes them (ADR 042). */
export type HousekeepingPeriods = {
  /** Days a read notification stays in the bell's list (`COFFER_READ_NOTIFICATION_DAYS`). */
  readNotificationDays: number;
  /** Days a sent email stays in the outbox (`COFFER_SENT_EMAIL_DAYS`). */
  sentEmailDays: number;
};

/** Whether the runtime knows `name` as an IANA time zone ("Europe/Berlin", "UTC"). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

// Good enough to keep a developer's sandbox working; nothing outside a sandbox starts with it.
const developmentSecretKey = 'coffer-development-secret-key-not-for-production';

/**
 * The issuing secret when none is set: its own key, derived from the secret key (secret
 * outside a sandbox, where that key is required), so a sandbox's simulated purchases are signed
 * without any set-up and no two installations share it unless they share the secret key.
 */
function derivedIssuingSecret(secretKeys: SecretKeys): string {
  return createHmac('sha256', secretKeys.current.material)
    .update('coffer issuing webhooks')
    .digest('hex');
}

/** `COFFER_SECRET_KEY`'s keys (platform/secret-keys.ts); a malformed list names the variable. */
function loadSecretKeys(text: string): SecretKeys {
  try {
    return parseSecretKeys(text);
  } catch (error) {
    if (!(error instanceof SecretKeysError)) throw error;
    throw new ConfigError(`Invalid configuration:\n  COFFER_SECRET_KEY: ${error.message}`);
  }
}

/** Who may say who the client is: nobody, the nearest `hopCount` proxies, or these. */
export type TrustProxy = false | { hopCount: number } | { addresses: string[] };

export type Config = {
  environment: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** The reverse proxies whose X-Forwarded-* headers name the client (docs/OPERATIONS.md). */
  trustProxy: TrustProxy;
  /** Unset: the embedded PGlite database under `dataDir`. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  dataDir: string;
  webDistDir: string;
  isSandbox: boolean;
  /**
   * Support and admin must have two-factor on before any staff route answers them
   * (`COFFER_STAFF_TWO_FACTOR`; required outside the sandbox unless set to 0).
   */
  isStaffTwoFactorRequired: boolean;
  logLevel: z.infer<typeof envSchema>['COFFER_LOG_LEVEL'];
  shutdownTimeoutMs: number;
  /** The origin people reach Coffer at; links in emails and the Origin check use it. */
  publicUrl: string;
  isHttps: boolean;
  /**
   * The WebAuthn relying party passkeys are made for and checked against: the public
   * origin's host name and the origin itself (`relyingPartyOf`, checked at start-up).
   */
  relyingParty: RelyingParty | null;
  /**
   * Encrypt authenticator secrets and identity documents at rest: the current key encrypts,
   * every key decrypts what it encrypted (`npm run rotate-keys` moves all to the current).
   */
  secretKeys: SecretKeys;
  smtpUrl: string | undefined;
  /**
   * Outside a sandbox without SMTP, by the operator's explicit `COFFER_MAIL=outbox-only`:
   * mail (verification and withdrawal codes too) is only queued, and start-up warns.
   */
  isMailOutboxOnly: boolean;
  mailFrom: string;
  siteFile: string | undefined;
  /** The payout fee in minor units per wallet currency; a currency not listed pays none. */
  payoutFeeMinorByCurrency: ReadonlyMap<string, bigint>;
  /** The virtual card's creation fee per wallet currency; a currency not listed pays none. */
  cardFeeMinorByCurrency: ReadonlyMap<string, bigint>;
  /**
   * Signs the issuing processor's authorization and settlement requests (HMAC-SHA256):
   * `COFFER_ISSUING_SECRET`, or one derived from the current secret key when it is unset.
   */
  issuingSecret: string;
  /** Every limit and threshold per currency (`COFFER_LIMITS` over the built-in defaults). */
  limits: LimitsTable;
  /** Requests a customer may make to each money route per minute (platform/rate-limits.ts). */
  moneyRequestsPerMinute: number;
  /** Days the documents of rejected or superseded KYC submissions are kept. */
  kycRetentionDays: number;
  /**
   * Years after a customer closes their account before their personal data is removed
   * (`COFFER_RETENTION_YEARS`, default 10; docs/OPERATIONS.md, "Closed accounts").
   */
  retentionYears: number;
  /** How long read notifications and sent emails are kept (platform/housekeeping.ts). */
  housekeeping: HousekeepingPeriods;
  /** Loan terms per wallet currency (`COFFER_LOAN_TERMS`); a currency not listed offers no loans. */
  loanTerms: ReadonlyMap<string, LoanTerms>;
  /** How often an instance looks for due scheduled jobs (platform/jobs.ts). */
  jobTickMs: number;
  /**
   * Whether this instance pays confirmed bulk payment files (`COFFER_BULK_PAYER`, on unless
   * 0): several instances may all pay them; a test turns it off to pay batches itself.
   */
  isBulkPayerOn: boolean;
  /** The general-ledger code and name of each account kind (`COFFER_GL_MAP` over the default). */
  glMap: GlMap;
  /** The institution's time zone (`COFFER_TIMEZONE`): its days are the books' days. */
  timeZone: string;
  /**
   * The institution's own bank account (`COFFER_BANK_IBAN`, `COFFER_BANK_BIC`): payout
   * batch files debit it and imported statements must be of it. A sandbox has a test one;
   * null elsewhere until set, and payment files are refused.
   */
  bankAccount: { iban: string; bic: string | undefined } | null;
  /**
   * The country and bank code accounts' IBANs are made of (`COFFER_IBAN`); null (unset):
   * accounts have their account number only.
   */
  ibanScheme: IbanScheme | null;
  /**
   * Where Prometheus scrapes `/metrics` (platform/metrics.ts): a port of its own, on
   * loopback unless `COFFER_METRICS_HOST` says otherwise; null (the default) serves none.
   */
  metrics: { port: number; host: string } | null;
  /**
   * Webhooks may go to plain http and to private, loopback and link-local addresses
   * (`COFFER_WEBHOOKS_ALLOW_PRIVATE=1`): for tests and a developer's own receiver only,
   * refused in production.
   */
  isWebhookToPrivateAllowed: boolean;
  /** Offered currencies, rate source, markups and maximum rate age (ADR 051, ADR 052). */
  fx: FxSettings;
  /** The languages people may choose (ADR 054), English always among them. */
  languages: readonly Language[];
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type RelyingParty = { id: string; origin: string };

/**
 * Passkeys are bound to a domain name: WebAuthn refuses an IP address as the relying
 * party, so an installation reached by one (a test server on 127.0.0.1) has none, its
 * passkey routes answer `passkeys_unavailable`, and start-up says so in the log.
 */
export function relyingPartyOf(publicUrl: string): RelyingParty | null {
  const url = new URL(publicUrl);
  const isIpAddress = /^\d{1,3}(\.\d{1,3}){3}$/.test(url.hostname) || url.hostname.startsWith('[');
  return isIpAddress ? null : { id: url.hostname, origin: url.origin };
}

/**
 * `COFFER_LIMITS` over the defaults, with `COFFER_FOUR_EYES_DAILY_TOTAL` (JSON of one
 * amount per currency, `{"USD":"25000.00"}`) as a shorthand for each currency's
 * `fourEyesDailyTotal`. A bad value stops start-up naming the variable and the key.
 */
function loadLimits(limitsJson: string | undefined, dailyTotalsJson: string | undefined) {
  let variable = 'COFFER_LIMITS';
  try {
    let table: Record<string, Record<string, unknown>> = {};
    if (limitsJson !== undefined) {
      const parsed: unknown = JSON.parse(limitsJson);
      table = z.record(z.string(), z.record(z.string(), z.unknown())).parse(parsed);
    }
    if (dailyTotalsJson !== undefined) {
      variable = 'COFFER_FOUR_EYES_DAILY_TOTAL';
      const totals = z.record(z.string(), z.string()).parse(JSON.parse(dailyTotalsJson));
      for (const [currency, total] of Object.entries(totals)) {
        table[currency] = { ...table[currency], fourEyesDailyTotal: total };
      }
      variable = 'COFFER_LIMITS';
    }
    return parseLimitsTable(
      limitsJson === undefined && dailyTotalsJson === undefined ? undefined : JSON.stringify(table),
    );
  } catch (error) {
    const detail =
      error instanceof LimitsConfigError
        ? error.message
        : 'must be a JSON object of currency codes (see the README)';
    throw new ConfigError(`Invalid configuration:\n  ${variable}: ${detail}`);
  }
}

/** `COFFER_LOAN_TERMS`, or in a sandbox the built-in USD, EUR and JPY terms; else none. */
function loadLoanTerms(termsJson: string | undefined, isSandbox: boolean) {
  const json = termsJson ?? (isSandbox ? defaultLoanTermsJson : '{}');
  try {
    return parseLoanTerms(json);
  } catch (error) {
    if (!(error instanceof LoanTermsError)) throw error;
    throw new ConfigError(`Invalid configuration:\n  COFFER_LOAN_TERMS: ${error.message}`);
  }
}

function loadGlMap(json: string | undefined): GlMap {
  try {
    return parseGlMap(json);
  } catch (error) {
    if (!(error instanceof GlMapError)) throw error;
    throw new ConfigError(`Invalid configuration:\n  COFFER_GL_MAP: ${error.message}`);
  }
}

function loadIbanScheme(text: string | undefined): IbanScheme | null {
  if (text === undefined) return null;
  try {
    return parseIbanScheme(text);
  } catch (error) {
    if (!(error instanceof IbanSchemeError)) throw error;
    throw new ConfigError(`Invalid configuration:\n  COFFER_IBAN: ${error.message}`);
  }
}

/** The sandbox offers these; elsewhere only what the operator lists (ADR 052). */
const sandboxCurrencies = 'USD,EUR,JPY,KWD,GBP';

const noRateSource: RateSource = {
  name: 'none',
  read: () => ({ problem: 'no rate source is configured (COFFER_FX_FILE)' }),
};

function loadFx(
  values: {
    COFFER_CURRENCIES?: string | undefined;
    COFFER_FX_FILE?: string | undefined;
    COFFER_FX_MARKUP?: string | undefined;
    COFFER_FX_MAX_AGE: number;
    COFFER_FX_MARKUP_MAX: number;
  },
  isSandbox: boolean,
): FxSettings {
  const codes = (values.COFFER_CURRENCIES ?? (isSandbox ? sandboxCurrencies : ''))
    .split(',')
    .map((code) => code.trim())
    .filter((code) => code !== '');
  const unknown = codes.filter((code) => !isCurrencyCode(code));
  if (unknown.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  COFFER_CURRENCIES: ${unknown.join(', ')}: not an ISO 4217 currency code with minor units`,
    );
  }
  let markups: FxSettings['markups'];
  try {
    // The sandbox shows a markup (0.5 %) so that a quote has one to disclose.
    markups = parseMarkups(values.COFFER_FX_MARKUP ?? (isSandbox ? '{"*": 50}' : undefined));
  } catch (error) {
    if (!(error instanceof FxConfigError)) throw error;
    throw new ConfigError(`Invalid configuration:\n  COFFER_FX_MARKUP: ${error.message}`);
  }
  const source = values.COFFER_FX_FILE
    ? fileRateSource(path.resolve(values.COFFER_FX_FILE))
    : isSandbox
      ? sandboxRateSource()
      : noRateSource;
  return {
    currencies: [...new Set(codes)].map((code) => code as CurrencyCode),
    source,
    markups,
    maxAgeSeconds: values.COFFER_FX_MAX_AGE,
    markupBpMaxForStaff: values.COFFER_FX_MARKUP_MAX,
  };
}

/** Reads and checks the environment once; a bad value names its variable. */
/** The sandbox's bank account: the standard's example IBAN, which no real account has. */
const sandboxBankIban = 'DE89370400440532013000';

function bankAccountOf(
  iban: string | undefined,
  bic: string | undefined,
  isSandbox: boolean,
): Config['bankAccount'] {
  const chosen = iban ?? (isSandbox ? sandboxBankIban : undefined);
  return chosen === undefined ? null : { iban: chosen, bic };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const values = parsed.data;
  const isProduction = values.NODE_ENV === 'production';
  // A fresh checkout runs as a sandbox; production must never carry demo data.
  const isSandbox = values.COFFER_SANDBOX ?? !isProduction;
  if (isProduction && isSandbox) {
    throw new ConfigError('Invalid configuration:\n  COFFER_SANDBOX: must be 0 in production');
  }
  // Demo users' passwords are printed and published: a sandbox nobody asked for must not
  // be reachable from other machines.
  if (isSandbox && values.COFFER_SANDBOX === undefined && !isLoopback(values.COFFER_HOST)) {
    throw new ConfigError(
      `Invalid configuration:\n  COFFER_SANDBOX: sandbox mode (demo users with published passwords, test money) is the default only on a loopback COFFER_HOST, not on ${values.COFFER_HOST}; set COFFER_SANDBOX=1 to serve a sandbox there, or COFFER_SANDBOX=0`,
    );
  }
  // The development key is published: with it anyone could forge what the key protects
  // (authenticator secrets and identity documents at rest, the issuing signature key).
  if (!isSandbox && !values.COFFER_SECRET_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  COFFER_SECRET_KEY: required outside the sandbox (COFFER_SANDBOX=0), whatever NODE_ENV is; the built-in key is public',
    );
  }
  // Without SMTP, verification and withdrawal codes never leave the outbox; a sandbox
  // shows them on its own mail page, a real bank must say it means that.
  if (!isSandbox && !values.SMTP_URL && values.COFFER_MAIL !== 'outbox-only') {
    throw new ConfigError(
      'Invalid configuration:\n  SMTP_URL: required outside the sandbox, or nobody receives verification and withdrawal codes; set COFFER_MAIL=outbox-only to start without sending mail',
    );
  }
  if (values.COFFER_MAIL === 'outbox-only' && values.SMTP_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  COFFER_MAIL: outbox-only sends nothing, yet SMTP_URL is set: unset one of them',
    );
  }
  if (isProduction && !values.COFFER_PUBLIC_URL?.startsWith('https://')) {
    throw new ConfigError(
      'Invalid configuration:\n  COFFER_PUBLIC_URL: production needs the https:// origin it is served at',
    );
  }
  if (values.COFFER_METRICS_PORT === values.PORT) {
    throw new ConfigError(
      `Invalid configuration:\n  COFFER_METRICS_PORT: ${values.PORT} is the API's own PORT; metrics need a port of their own`,
    );
  }
  // A webhook to a private address is a way into the operator's own network (SSRF).
  if (isProduction && values.COFFER_WEBHOOKS_ALLOW_PRIVATE) {
    throw new ConfigError(
      'Invalid configuration:\n  COFFER_WEBHOOKS_ALLOW_PRIVATE: must be 0 in production; webhooks to private addresses would reach the operator’s own network',
    );
  }
  const limits = loadLimits(values.COFFER_LIMITS, values.COFFER_FOUR_EYES_DAILY_TOTAL);
  const publicUrl = values.COFFER_PUBLIC_URL ?? `http://localhost:${values.PORT}`;
  const secretKeys = loadSecretKeys(values.COFFER_SECRET_KEY ?? developmentSecretKey);
  return {
    environment: values.NODE_ENV,
    port: values.PORT,
    host: values.COFFER_HOST,
    trustProxy: values.COFFER_TRUST_PROXY ?? false,
    databaseUrl: values.DATABASE_URL,
    databasePoolSize: values.COFFER_DB_POOL_SIZE,
    dataDir: path.resolve(values.COFFER_DATA_DIR),
    webDistDir: path.resolve(values.COFFER_WEB_DIST),
    isSandbox,
    // Outside the sandbox staff see real customers and move real money: a stolen staff
    // password alone must not open the back office. The sandbox's demo staff have no
    // authenticator, and their passwords are published anyway.
    isStaffTwoFactorRequired: values.COFFER_STAFF_TWO_FACTOR ?? !isSandbox,
    logLevel: values.COFFER_LOG_LEVEL,
    shutdownTimeoutMs: values.COFFER_SHUTDOWN_TIMEOUT_MS,
    publicUrl,
    isHttps: publicUrl.startsWith('https://'),
    relyingParty: relyingPartyOf(publicUrl),
    secretKeys,
    smtpUrl: values.SMTP_URL,
    isMailOutboxOnly: !isSandbox && values.COFFER_MAIL === 'outbox-only',
    mailFrom: values.COFFER_MAIL_FROM,
    siteFile: values.COFFER_SITE_FILE,
    payoutFeeMinorByCurrency: values.COFFER_PAYOUT_FEES ?? new Map(),
    cardFeeMinorByCurrency: values.COFFER_CARD_FEES,
    issuingSecret: values.COFFER_ISSUING_SECRET ?? derivedIssuingSecret(secretKeys),
    limits,
    moneyRequestsPerMinute: values.COFFER_MONEY_REQUESTS_PER_MINUTE,
    kycRetentionDays: values.COFFER_KYC_RETENTION_DAYS,
    retentionYears: values.COFFER_RETENTION_YEARS,
    housekeeping: {
      readNotificationDays: values.COFFER_READ_NOTIFICATION_DAYS,
      sentEmailDays: values.COFFER_SENT_EMAIL_DAYS,
    },
    loanTerms: loadLoanTerms(values.COFFER_LOAN_TERMS, isSandbox),
    jobTickMs: values.COFFER_JOB_TICK_MS,
    isBulkPayerOn: values.COFFER_BULK_PAYER ?? true,
    glMap: loadGlMap(values.COFFER_GL_MAP),
    timeZone: values.COFFER_TIMEZONE,
    bankAccount: bankAccountOf(values.COFFER_BANK_IBAN, values.COFFER_BANK_BIC, isSandbox),
    ibanScheme: loadIbanScheme(values.COFFER_IBAN),
    metrics:
      values.COFFER_METRICS_PORT === undefined
        ? null
        : { port: values.COFFER_METRICS_PORT, host: values.COFFER_METRICS_HOST },
    isWebhookToPrivateAllowed: values.COFFER_WEBHOOKS_ALLOW_PRIVATE ?? false,
    fx: loadFx(values, isSandbox),
    languages: values.COFFER_LANGUAGES ?? languages,
  };
}
