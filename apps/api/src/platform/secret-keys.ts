/**
 * The keys of COFFER_SECRET_KEY (docs/OPERATIONS.md, "Key rotation"): one key as before key
 * lists, or `id:key,id:key` oldest first, the last one encrypting and every one decrypting.
 */

/** The id of a key given alone, as before key lists; what it encrypted carries no id. */
export const legacyKeyId = 'legacy';

/**
 * One key: its id and what the ciphers derive their own keys from, the way a single key
 * always was (the text for the legacy key, the 32 decoded bytes for the others).
 */
export type SecretKey = { id: string; material: string | Buffer };

export type SecretKeys = {
  /** The last key of the list: everything new is encrypted with it. */
  current: SecretKey;
  byId: ReadonlyMap<string, SecretKey>;
};

export class SecretKeysError extends Error {
  override name = 'SecretKeysError';
}

const keyIdPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;
const base64Pattern = /^[A-Za-z0-9+/_-]+={0,2}$/;
const keyBytes = 32;
const legacyKeyLengthMin = 32;
const keysMax = 16;

function legacyKey(text: string): SecretKey {
  if (text.length < legacyKeyLengthMin) {
    throw new SecretKeysError(`must be at least ${legacyKeyLengthMin} characters`);
  }
  return { id: legacyKeyId, material: text };
}

function listedKey(entry: string): SecretKey {
  const separator = entry.indexOf(':');
  if (separator === -1) {
    throw new SecretKeysError('each entry of a key list is id:key, separated by commas');
  }
  const id = entry.slice(0, separator);
  const text = entry.slice(separator + 1);
  if (!keyIdPattern.test(id)) {
    throw new SecretKeysError(
      `${JSON.stringify(id)} is not a key id: 1 to 32 letters, digits, - or _, starting with a letter or digit`,
    );
  }
  if (text === '') throw new SecretKeysError(`key ${id} is empty`);
  // A key from before key lists, written in a list while what it encrypted is rotated.
  if (id === legacyKeyId) return legacyKey(text);
  const decoded = base64Pattern.test(text) ? Buffer.from(text, 'base64') : Buffer.alloc(0);
  if (decoded.length !== keyBytes) {
    throw new SecretKeysError(
      `key ${id} must be ${keyBytes} random bytes in base64 (openssl rand -base64 32)${decoded.length > 0 ? `, not ${decoded.length} bytes` : ''}`,
    );
  }
  return { id, material: decoded };
}

/**
 * The keys a value of COFFER_SECRET_KEY holds. A value with a colon is a list; anything
 * else is one key as before key lists (id `legacy`). A list must be exactly right: a
 * duplicate id, an empty or short key, or the same key twice stops start-up rather than
 * leaving something encrypted that no key opens.
 */
export function parseSecretKeys(text: string): SecretKeys {
  if (!text.includes(':')) {
    const key = legacyKey(text);
    return { current: key, byId: new Map([[key.id, key]]) };
  }
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.some((entry) => entry === '')) {
    throw new SecretKeysError('the key list has an empty entry (two commas, or one at an end)');
  }
  if (entries.length > keysMax) {
    throw new SecretKeysError(`at most ${keysMax} keys; rotate and remove the old ones`);
  }
  const byId = new Map<string, SecretKey>();
  for (const key of entries.map(listedKey)) {
    if (byId.has(key.id)) throw new SecretKeysError(`key id ${key.id} appears twice`);
    const twin = [...byId.values()].find((other) => sameMaterial(other, key));
    if (twin) throw new SecretKeysError(`keys ${twin.id} and ${key.id} are the same key`);
    byId.set(key.id, key);
  }
  const current = [...byId.values()].at(-1);
  if (!current) throw new SecretKeysError('the key list is empty');
  return { current, byId };
}

function sameMaterial(one: SecretKey, other: SecretKey): boolean {
  return Buffer.from(one.material).equals(Buffer.from(other.material));
}

/** The key of `id`, which the start-up check guarantees for everything stored. */
export function secretKeyById(keys: SecretKeys, id: string): SecretKey {
  const key = keys.byId.get(id);
  if (!key) {
    throw new SecretKeysError(`COFFER_SECRET_KEY has no key ${id}, which encrypted this record`);
  }
  return key;
}
