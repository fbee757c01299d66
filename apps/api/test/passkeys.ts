// A software authenticator for the API tests (ADR 046): real WebAuthn answers, built with
// node:crypto's ES256 keys and a small CBOR writer, that @simplewebauthn/server checks as
// it checks a browser's. Nothing of the server is mocked.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import type { TestCustomer } from './customers.ts';

type CborValue = number | string | Uint8Array | CborValue[] | Map<CborValue, CborValue>;

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const head = Buffer.alloc(3);
    head[0] = (major << 5) | 25;
    head.writeUInt16BE(length, 1);
    return head;
  }
  const head = Buffer.alloc(5);
  head[0] = (major << 5) | 26;
  head.writeUInt32BE(length, 1);
  return head;
}

/** The CBOR subset WebAuthn needs: integers, text, bytes, arrays and maps. */
export function encodeCbor(value: CborValue): Buffer {
  if (typeof value === 'number') {
    return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  }
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([cborHead(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value]);
  if (Array.isArray(value)) {
    return Buffer.concat([cborHead(4, value.length), ...value.map(encodeCbor)]);
  }
  const entries = [...value.entries()].flatMap(([key, item]) => [
    encodeCbor(key),
    encodeCbor(item),
  ]);
  return Buffer.concat([cborHead(5, value.size), ...entries]);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

const flags = { userPresent: 0x01, userVerified: 0x04, attestedCredentialData: 0x40 };

type Credential = {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  userHandle: string;
  signCount: number;
};

type Options = { challenge: string; rp?: { id?: string }; rpId?: string; user?: { id: string } };

export type AnswerOverrides = {
  /** Signs as if the page were another site. */
  origin?: string;
  /** A counter to report instead of the next one (a cloned authenticator's). */
  signCount?: number;
  /** Leaves the user-verified flag out (presence only). */
  isUserVerified?: boolean;
};

/** One authenticator holding passkeys for one site, as a phone or a security key would. */
export class SoftwareAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(
    readonly origin: string,
    readonly rpId = new URL(origin).hostname,
  ) {}

  /** Answers `navigator.credentials.create` with a new ES256 key ("none" attestation). */
  createResponse(options: Options, overrides: AnswerOverrides = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credential: Credential = {
      id: randomBytes(32),
      privateKey,
      publicKey,
      userHandle: options.user?.id ?? '',
      signCount: 0,
    };
    this.credentials.push(credential);
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<CborValue, CborValue>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x ?? '', 'base64url')],
      [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      this.authDataHead(flags.attestedCredentialData, overrides, 0),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      credential.id,
      encodeCbor(coseKey),
    ]);
    const attestationObject = encodeCbor(
      new Map<CborValue, CborValue>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: credential.id.toString('base64url'),
      rawId: credential.id.toString('base64url'),
      type: 'public-key' as const,
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge, overrides),
        attestationObject: attestationObject.toString('base64url'),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  /** Answers `navigator.credentials.get` with one of its passkeys (the newest by default). */
  getResponse(options: Options, overrides: AnswerOverrides = {}, credentialIndex = -1) {
    const credential = this.credentials.at(credentialIndex);
    if (!credential) throw new Error('this authenticator holds no passkey yet');
    credential.signCount += 1;
    const authData = this.authDataHead(0, overrides, overrides.signCount ?? credential.signCount);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, overrides);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]),
      credential.privateKey,
    );
    return {
      id: credential.id.toString('base64url'),
      rawId: credential.id.toString('base64url'),
      type: 'public-key' as const,
      response: {
        clientDataJSON,
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  private authDataHead(extraFlags: number, overrides: AnswerOverrides, signCount: number) {
    const userFlags =
      flags.userPresent | (overrides.isUserVerified === false ? 0 : flags.userVerified);
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(signCount);
    return Buffer.concat([sha256(this.rpId), Buffer.from([userFlags | extraFlags]), counter]);
  }

  private clientData(type: string, challenge: string, overrides: AnswerOverrides): string {
    const clientData = {
      type,
      challenge,
      origin: overrides.origin ?? this.origin,
      crossOrigin: false,
    };
    return Buffer.from(JSON.stringify(clientData)).toString('base64url');
  }
}

/** Registers a passkey the way the profile page does: password, authenticator, name. */
export async function registerPasskey(
  customer: TestCustomer,
  authenticator: SoftwareAuthenticator,
  name = 'My phone',
) {
  const started = await customer.client.post('/api/v1/profile/passkeys/options', {
    currentPassword: customer.body.password,
  });
  if (started.statusCode !== 200) throw new Error(`passkey options refused: ${started.body}`);
  const response = authenticator.createResponse(started.json().options);
  return customer.client.post('/api/v1/profile/passkeys', { name, response });
}
