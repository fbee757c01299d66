import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import type { TestCustomer } from './customers.ts';

/** A bulk payment file's text: the header, then `lines` as they are. */
export function bulkCsv(lines: string[], header = 'recipient,amount,reference'): string {
  return [header, ...lines].join('\n');
}

export function uploadBulkFile(
  customer: TestCustomer,
  file: string | Buffer,
  contentType = 'text/csv',
): Promise<LightMyRequestResponse> {
  const body = typeof file === 'string' ? Buffer.from(file, 'utf8') : file;
  return customer.client.request('POST', '/api/v1/bulk-payments', body, {
    'content-type': contentType,
  });
}

/** The file as its customer reads it, once its payer has settled every line. */
export async function bulkPaymentWhenDone(
  customer: TestCustomer,
  bulkPaymentId: string,
): Promise<Record<string, unknown>> {
  // Polled, never timed: the payer runs after the confirm's answer, batch after batch.
  for (let poll = 0; poll < 600; poll += 1) {
    const read = await customer.client.get(`/api/v1/bulk-payments/${bulkPaymentId}`);
    const body = read.json();
    if (body.status === 'done') return body;
    await sleep(20);
  }
  throw new Error('the bulk payment file was not paid');
}
