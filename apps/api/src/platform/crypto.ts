import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: session ids, link tokens, challenges. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

const cipherName = 'aes-256-gcm';
const ivLengthBytes = 12;

function keyFrom(secretKey: string): Buffer {
  return createHash('sha256').update(`coffer:secrets:${secretKey}`).digest();
}

/** AES-256-GCM; the result carries its IV and tag: "iv.tag.ciphertext" in base64url. */
export function encryptSecret(plainText: string, secretKey: string): string {
  const iv = randomBytes(ivLengthBytes);
  const cipher = createCipheriv(cipherName, keyFrom(secretKey), iv);
  const encrypted = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), encrypted].map((part) => part.toString('base64url')).join('.');
}

export function decryptSecret(sealed: string, secretKey: string): string {
  const [iv, tag, encrypted] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !encrypted) throw new Error('malformed sealed secret');
  const decipher = createDecipheriv(cipherName, keyFrom(secretKey), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(encrypted), decipher.final()]).toString('utf8');
}
