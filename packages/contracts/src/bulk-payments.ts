import { minorUnitsSchema } from './money.ts';
import { stepUpCodeSchema } from './step-up.ts';
import { z } from './zod.ts';

/**
 * Bulk payments from a CSV file (issue #32 item 3, ADR 044): a header line of exactly
 * these columns, then one Quick Pay a line, comma-separated UTF-8 (a byte-order mark and
 * Windows line ends are accepted: spreadsheets write them).
 */
export const bulkPaymentColumns = ['recipient', 'amount', 'reference'] as const;
/** Payments one file may hold (the header not counted). */
export const bulkPaymentLinesMax = 10_000;
/** 10,000 lines of an email, an amount and a reference fit in well under this. */
export const bulkPaymentBytesMax = 2 * 1024 * 1024;
/** The reference a line carries to the recipient, as a Quick Pay note. */
export const bulkPaymentReferenceLengthMax = 140;
/** At most this many problems are listed; a file with more names how many were left out. */
export const bulkPaymentProblemsListedMax = 500;

export function bulkFileTooLargeMessage(): string {
  return `The file is larger than ${bulkPaymentBytesMax / 1024 / 1024} MB. Split it into smaller files.`;
}

export const bulkPaymentStatuses = ['checked', 'paying', 'done'] as const;
export type BulkPaymentStatus = (typeof bulkPaymentStatuses)[number];

export const bulkPaymentLineStatuses = ['pending', 'paid', 'refused'] as const;
export type BulkPaymentLineStatus = (typeof bulkPaymentLineStatuses)[number];

export const bulkPaymentSchema = z.object({
  id: z.uuid(),
  status: z.enum(bulkPaymentStatuses),
  currency: z.string(),
  lineCount: z.number(),
  paidCount: z.number(),
  refusedCount: z.number(),
  totalMinor: minorUnitsSchema,
  paidMinor: minorUnitsSchema,
  /** What the file uses of today's Quick Pay limit, which it is counted against whole. */
  dailyLimitMinor: z.nullable(minorUnitsSchema),
  spentTodayMinor: minorUnitsSchema,
  createdAt: z.iso.datetime(),
  confirmedAt: z.nullable(z.iso.datetime()),
  finishedAt: z.nullable(z.iso.datetime()),
});
export type BulkPayment = z.infer<typeof bulkPaymentSchema>;

export const bulkPaymentListSchema = z.object({ items: z.array(bulkPaymentSchema) });
export type BulkPaymentList = z.infer<typeof bulkPaymentListSchema>;

export const bulkPaymentIdParamsSchema = z.object({ bulkPaymentId: z.uuid() });

export const confirmBulkPaymentBodySchema = z.object({
  /** Every file needs one; the server answers `step_up_required` without. */
  stepUpCode: z.optional(stepUpCodeSchema),
});
export type ConfirmBulkPaymentBody = z.infer<typeof confirmBulkPaymentBodySchema>;

/** A file's problems arrive as `fields` of a `file_refused` error: "line 7" → its problems. */
export function problemLinesOf(
  fields: Record<string, string> | undefined,
): { place: string; message: string }[] {
  return Object.entries(fields ?? {})
    .map(([place, message]) => ({ place, message }))
    .sort((a, b) => lineNumberOf(a.place) - lineNumberOf(b.place));
}

function lineNumberOf(place: string): number {
  const found = /^line (\d+)/.exec(place);
  return found ? Number(found[1]) : Number.MAX_SAFE_INTEGER;
}
