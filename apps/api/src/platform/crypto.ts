import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { legacyKeyId, type SecretKey, type SecretKeys, secretKeyById } from './secret-keys.ts';

/** 256 random bits, URL-safe: session ids, link tokens, challenges. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

const cipherName = 'aes-256-gcm';
const ivLengthBytes = 12;
/** The envelope version of a secret that names its key: "v1.{key id}.iv.tag.ciphertext". */
const envelopeVersion = 'v1';

function keyFrom(key: SecretKey): Buffer {
  return createHash('sha256').update('coffer:secrets:').update(key.material).digest();
}

/**
 * AES-256-GCM under the current key; the result carries its IV and tag in base64url. The
 * legacy key writes "iv.tag.ciphertext" as it always did; any other key prefixes "v1.{id}",
 * authenticated with the rest, so the record says which key opens it.
 */
export function encryptSecret(plainText: string, keys: SecretKeys): string {
  const key = keys.current;
  const iv = randomBytes(ivLengthBytes);
  const cipher = createCipheriv(cipherName, keyFrom(key), iv);
  const header = key.id === legacyKeyId ? [] : [envelopeVersion, key.id];
  if (header.length > 0) cipher.setAAD(Buffer.from(header.join('.')));
  const encrypted = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), encrypted].map((part) => part.toString('base64url'));
  return [...header, ...parts].join('.');
}

/** The id of the key a sealed secret was encrypted with. */
export function sealedSecretKeyId(sealed: string): string {
  const parts = sealed.split('.');
  return parts.length === 5 && parts[0] === envelopeVersion ? (parts[1] ?? '') : legacyKeyId;
}

/** Opens a sealed secret with the key it names; a changed byte fails the tag check and throws. */
export function decryptSecret(sealed: string, keys: SecretKeys): string {
  const keyId = sealedSecretKeyId(sealed);
  const parts = sealed.split('.');
  const header = keyId === legacyKeyId ? [] : parts.splice(0, 2);
  const [iv, tag, encrypted] = parts.map((part) => Buffer.from(part, 'base64url'));
  if (parts.length !== 3 || !iv || !tag || !encrypted) throw new Error('malformed sealed secret');
  const decipher = createDecipheriv(cipherName, keyFrom(secretKeyById(keys, keyId)), iv);
  if (header.length > 0) decipher.setAAD(Buffer.from(header.join('.')));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(encrypted), decipher.final()]).toString('utf8');
}
