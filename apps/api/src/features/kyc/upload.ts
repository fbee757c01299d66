import { type Readable, Transform, type TransformCallback } from 'node:stream';
import {
  type KycDocumentMediaType,
  kycDocumentBytesMax,
  kycDocumentEmptyMessage,
  kycDocumentMediaTypes,
  kycDocumentTooLargeMessage,
  kycDocumentTypeMessage,
} from '@coffer/contracts/kyc';
import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../../platform/app-error.ts';
import { OffThreadSha256 } from '../../platform/off-thread-crypto.ts';
import type { DocumentStorage } from './storage.ts';

/** Enough of the start of a file for file-type to recognise JPEG, PNG and PDF. */
const sniffBytes = 4_100;

export type InspectedDocument = {
  mediaType: KycDocumentMediaType;
  sizeBytes: number;
  sha256: string;
};

export function documentTooLarge(): AppError {
  return new AppError('payload_too_large', {
    message: kycDocumentTooLargeMessage,
    fields: { document: kycDocumentTooLargeMessage },
  });
}

function refused(message: string): AppError {
  return new AppError('validation_failed', { message, fields: { document: message } });
}

function isAccepted(mime: string | undefined): mime is KycDocumentMediaType {
  return (kycDocumentMediaTypes as readonly string[]).includes(mime ?? '');
}

/** The type read from the first bytes; a name or a declared type is never asked. */
async function mediaTypeOf(head: Buffer): Promise<KycDocumentMediaType> {
  const detected = await fileTypeFromBuffer(head);
  if (!isAccepted(detected?.mime)) throw refused(kycDocumentTypeMessage);
  return detected.mime;
}

/**
 * Passes the bytes through while counting, hashing and typing them: the stream fails as
 * soon as the file passes 10 MB or its first bytes are not a JPEG, PNG or PDF, so a
 * refused upload is cut off early and nothing more is written.
 */
class DocumentInspector extends Transform {
  private sizeBytes = 0;
  private head: Buffer[] = [];
  private headBytes = 0;
  private mediaType: KycDocumentMediaType | null = null;
  // On a worker thread, as the storage's cipher: together they were the uploads' ceiling.
  private readonly hash = new OffThreadSha256();
  private sha256: string | null = null;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.sizeBytes += chunk.length;
    if (this.sizeBytes > kycDocumentBytesMax) {
      done(documentTooLarge());
    } else if (this.mediaType !== null) {
      this.hash.update(chunk);
      done(null, chunk);
    } else {
      this.hash.update(chunk);
      this.head.push(chunk);
      this.headBytes += chunk.length;
      if (this.headBytes < sniffBytes) done(null, chunk);
      else this.settleType().then(() => done(null, chunk), done);
    }
  }

  override _flush(done: TransformCallback): void {
    if (this.sizeBytes === 0) {
      done(refused(kycDocumentEmptyMessage));
      return;
    }
    const typed = this.mediaType !== null ? Promise.resolve() : this.settleType();
    typed
      .then(() => this.hash.digestHex())
      .then((sha256) => {
        this.sha256 = sha256;
        done();
      }, done);
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    this.hash.discard();
    done(error);
  }

  private async settleType(): Promise<void> {
    this.mediaType = await mediaTypeOf(Buffer.concat(this.head));
    this.head = [];
  }

  result(): InspectedDocument {
    if (this.mediaType === null || this.sha256 === null) {
      throw new Error('the document was not read to its end');
    }
    return { mediaType: this.mediaType, sizeBytes: this.sizeBytes, sha256: this.sha256 };
  }
}

export class UploadInterruptedError extends Error {
  override name = 'UploadInterruptedError';
}

/**
 * Streams an upload into storage under `storageKey`, checked on the way. The request is
 * piped rather than put in the pipeline: a refused upload must not destroy the request
 * (and its socket) before the 413 or 400 is answered. A connection that drops halfway
 * fails the store, and storage removes what was written.
 */
export async function storeInspected(
  storage: DocumentStorage,
  storageKey: string,
  source: Readable,
): Promise<InspectedDocument> {
  const inspector = new DocumentInspector();
  // It may fail before storage has attached its pipeline (which then reads the stored
  // error); until then this keeps the failure from being an unhandled 'error' event.
  inspector.on('error', () => {});
  const onClose = () => {
    if (!source.readableEnded) inspector.destroy(new UploadInterruptedError('upload interrupted'));
  };
  source.once('close', onClose);
  source.once('error', onClose);
  source.pipe(inspector);
  try {
    await storage.write(storageKey, inspector);
    return inspector.result();
  } finally {
    source.off('close', onClose);
    source.off('error', onClose);
    source.unpipe(inspector);
  }
}
