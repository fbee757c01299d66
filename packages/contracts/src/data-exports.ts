import { currentPasswordSchema } from './profile.ts';
import { z } from './zod.ts';

/**
 * A customer's export of their own data (issue #34 item 3, ADR 049): `building` until the
 * job has written the zip, then `ready` for seven days, then `expired` (the file removed);
 * `failed` when the build gave up.
 */
export const dataExportStatuses = ['building', 'ready', 'failed', 'expired'] as const;
export type DataExportStatus = (typeof dataExportStatuses)[number];

/** How long a ready export can be downloaded; the email and the page say until when. */
export const dataExportLifetimeDays = 7;

export const dataExportSchema = z.object({
  id: z.string(),
  status: z.enum(dataExportStatuses),
  /** The zip's parts written so far, of `sectionsTotal`: the page's progress bar. */
  sectionsDone: z.number(),
  sectionsTotal: z.number(),
  requestedAt: z.string(),
  readyAt: z.nullable(z.string()),
  /** When a ready export stops being downloadable (`ready` and `expired`). */
  expiresAt: z.nullable(z.string()),
  /** The zip's size in bytes once ready, as a string like every 64-bit number in JSON. */
  sizeBytes: z.nullable(z.string()),
});
export type DataExport = z.infer<typeof dataExportSchema>;

/** The customer's latest export, if they ever asked for one. */
export const dataExportOverviewSchema = z.object({ latest: z.nullable(dataExportSchema) });
export type DataExportOverview = z.infer<typeof dataExportOverviewSchema>;

export const dataExportParamsSchema = z.object({ exportId: z.uuid() });

/** The download needs the password again (a fresh sign-in), as security changes do. */
export const dataExportUnlockBodySchema = z.object({ currentPassword: currentPasswordSchema });

/** Until when this session may download the export: a few minutes after the password. */
export const dataExportUnlockSchema = z.object({
  downloadUrl: z.string(),
  allowedUntil: z.string(),
});
