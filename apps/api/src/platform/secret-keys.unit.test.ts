import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { decryptSecret, encryptSecret, sealedSecretKeyId } from './crypto.ts';
import { parseSecretKeys } from './secret-keys.ts';

const oldKey = 'an-installation-key-from-before-key-lists';
const newKey = () => randomBytes(32).toString('base64');

describe('COFFER_SECRET_KEY', () => {
  it('takes one key as before, with the id legacy, and writes what it always wrote', () => {
    const keys = parseSecretKeys(oldKey);
    expect(keys.current).toEqual({ id: 'legacy', material: oldKey });
    const sealed = encryptSecret('JBSWY3DPEHPK3PXP', keys);
    // "iv.tag.ciphertext", no id: older releases read it, and it needs the legacy key.
    expect(sealed.split('.')).toHaveLength(3);
    expect(sealedSecretKeyId(sealed)).toBe('legacy');
    expect(decryptSecret(sealed, keys)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('encrypts with the last key of a list and decrypts with any, by the id the record names', () => {
    const before = parseSecretKeys(oldKey);
    const sealedBefore = encryptSecret('old secret', before);
    const keys = parseSecretKeys(`legacy:${oldKey}, k2:${newKey()}`);
    expect(keys.current.id).toBe('k2');
    const sealed = encryptSecret('new secret', keys);
    expect(sealed.startsWith('v1.k2.')).toBe(true);
    expect(decryptSecret(sealed, keys)).toBe('new secret');
    expect(decryptSecret(sealedBefore, keys)).toBe('old secret');
    expect(() => decryptSecret(sealed, before)).toThrow(/no key k2/);
  });

  it('refuses a secret changed at rest, and one whose key id was changed', () => {
    const keys = parseSecretKeys(`k1:${newKey()},k2:${newKey()}`);
    const sealed = encryptSecret('secret', keys);
    const parts = sealed.split('.');
    const ciphertext = Buffer.from(parts[4] ?? '', 'base64url');
    ciphertext[0] = (ciphertext[0] ?? 0) ^ 1;
    parts[4] = ciphertext.toString('base64url');
    expect(() => decryptSecret(parts.join('.'), keys)).toThrow(/authenticate/);
    // Same bytes, said to be under the other key: the id is authenticated too.
    expect(() => decryptSecret(sealed.replace('v1.k2.', 'v1.k1.'), keys)).toThrow(/authenticate/);
  });

  it.each([
    ['a key id twice', `k1:${'A'.repeat(43)}=,k1:${'B'.repeat(43)}=`, 'key id k1 appears twice'],
    ['an empty key', `k1:${'A'.repeat(43)}=,k2:`, 'key k2 is empty'],
    ['a key of the wrong length', 'k1:c2hvcnQ=', 'key k1 must be 32 random bytes in base64'],
    ['a hex key', `k1:${randomBytes(32).toString('hex')}`, 'not 48 bytes'],
    ['an empty entry', `k1:${'A'.repeat(43)}=,,k2:${'B'.repeat(43)}=`, 'an empty entry'],
    ['a trailing comma', `k1:${'A'.repeat(43)}=,`, 'an empty entry'],
    ['an entry without an id', `k1:${'A'.repeat(43)}=,${'B'.repeat(44)}`, 'id:key'],
    ['a bad id', `k 1:${'A'.repeat(43)}=`, 'is not a key id'],
    ['the same key twice', `k1:${'A'.repeat(43)}=,k2:${'A'.repeat(43)}=`, 'same key'],
    ['a short legacy key', 'legacy:too-short', 'at least 32 characters'],
    ['a short single key', 'too-short', 'at least 32 characters'],
  ])('stops start-up naming the variable for %s', (_name, value, message) => {
    const start = () =>
      loadConfig({ COFFER_SANDBOX: '0', COFFER_MAIL: 'outbox-only', COFFER_SECRET_KEY: value });
    expect(start).toThrow(/COFFER_SECRET_KEY: /);
    expect(start).toThrow(message);
  });
});
