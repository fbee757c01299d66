import { Readable } from 'node:stream';
import { z } from 'zod/mini';

/** A file download (CSV, XML): written out as it is produced, never serialized as JSON. */
export const downloadSchema = z.custom<Readable | string>(
  (value) => value instanceof Readable || typeof value === 'string',
);
