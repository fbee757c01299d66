import { IncomingMessage } from 'node:http';
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
import type { DocumentStorage } from './storage.ts';

/** Enough of the start of a file for file-type to recognise JPEG, PNG and PDF. */
const sniffBytes = 4_100;
/**
 * How finely a body may be cut: pieces cost the API's one thread a few microseconds each
 * whatever their size, and a client chooses them (a 10 MB document in one-byte HTTP chunks
 * took half a minute of it). Network reads are a TCP segment or more (about 1.4 KB); past
 * the first pieces, fewer than this many bytes a piece on average is no browser's doing.
 */
const pieceBytesMin = 256;
const piecesFree = 1_024;

export type InspectedDocument = {
  mediaType: KycDocumentMediaType;
  sizeBytes: number;
  sha256: string;
  secretKeyId: string;
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
 * Passes the bytes through while counting and typing them: the stream fails as soon as
 * the file passes 10 MB or its first bytes are not a JPEG, PNG or PDF, so a refused upload
 * is cut off early and nothing more is written. Storage hashes them as it encrypts.
 */
class DocumentInspector extends Transform {
  private sizeBytes = 0;
  private pieces = 0;
  private head: Buffer[] = [];
  private headBytes = 0;
  private mediaType: KycDocumentMediaType | null = null;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.sizeBytes += chunk.length;
    this.pieces += 1;
    if (this.sizeBytes > kycDocumentBytesMax) {
      done(documentTooLarge());
    } else if (this.pieces > piecesFree + this.sizeBytes / pieceBytesMin) {
      done(new AppError('malformed_request'));
    } else if (this.mediaType !== null) {
      done(null, chunk);
    } else {
      // A copy: storage frees each chunk's memory once it has taken its bytes.
      this.head.push(Buffer.from(chunk.subarray(0, sniffBytes - this.headBytes)));
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
    if (this.mediaType !== null) done();
    else this.settleType().then(() => done(), done);
  }

  private async settleType(): Promise<void> {
    this.mediaType = await mediaTypeOf(Buffer.concat(this.head));
    this.head = [];
  }

  result(): Pick<InspectedDocument, 'mediaType' | 'sizeBytes'> {
    if (this.mediaType === null) throw new Error('the document was not read to its end');
    return { mediaType: this.mediaType, sizeBytes: this.sizeBytes };
  }
}

/**
 * A connection that dropped before the end: the client's doing (a phone losing its network),
 * so a 400 like any unreadable request, never an unhandled error logged as a bug.
 */
function uploadInterrupted(): AppError {
  return new AppError('malformed_request', { message: 'The upload was interrupted.' });
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
    if (!source.readableEnded) inspector.destroy(uploadInterrupted());
  };
  source.once('close', onClose);
  source.once('error', onClose);
  source.pipe(inspector);
  try {
    // A request read from its socket: each chunk is a copy made for it alone, so it is
    // moved to the crypto worker, not copied, and freed there once written (ADR 026);
    // the garbage collector of Node 24 would reclaim it only in a major collection.
    const freeChunks = source instanceof IncomingMessage;
    const stored = await storage.write(storageKey, inspector, { freeChunks });
    return { ...inspector.result(), ...stored };
  } finally {
    source.off('close', onClose);
    source.off('error', onClose);
    source.unpipe(inspector);
  }
}
