import type { z } from 'zod/mini';
import { parseAnswer } from './api-client.ts';

/**
 * POSTs a file's bytes with XMLHttpRequest, whose upload events report progress (fetch
 * has none). `onProgress` gets the fraction sent, 0 to 1. The answer is parsed by
 * `schema`; a refusal rejects with the ApiError it carries (its `fields` name the file's
 * problems where the API lists them).
 */
export function uploadWithProgress<T>(upload: {
  path: string;
  contentType: string;
  file: Blob;
  schema: z.ZodMiniType<T>;
  onProgress: (fraction: number) => void;
}): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', upload.path);
    request.setRequestHeader('content-type', upload.contentType);
    request.setRequestHeader('accept', 'application/json');
    request.responseType = 'json';
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) upload.onProgress(event.loaded / event.total);
    });
    const settle = () => {
      try {
        resolve(parseAnswer({ status: request.status, json: request.response }, upload.schema));
      } catch (error) {
        reject(error);
      }
    };
    request.addEventListener('load', settle);
    request.addEventListener('error', settle);
    request.addEventListener('abort', settle);
    request.send(upload.file);
  });
}
