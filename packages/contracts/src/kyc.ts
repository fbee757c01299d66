import { multiLineText, singleLineText } from './text.ts';
import { z } from './zod.ts';

/** PRODUCT.md section 5: the identity documents Coffer accepts. */
export const kycIdTypes = ['passport', 'driver_license', 'national_id'] as const;
export type KycIdType = (typeof kycIdTypes)[number];

export const kycIdTypeLabels: Record<KycIdType, string> = {
  passport: 'Passport',
  driver_license: "Driver's license",
  national_id: 'National ID card',
};

export const kycStatuses = ['pending', 'approved', 'rejected'] as const;
export type KycStatus = (typeof kycStatuses)[number];

/** The level an approved verification gives (never lowering a higher one). */
export const kycApprovedLevel = 2;
export const kycMinimumAgeYears = 18;
/** Nobody verifying an account is older: an earlier date is a typing slip (or a probe). */
export const kycMaximumAgeYears = 120;

/** PRODUCT.md section 5: JPEG, PNG or PDF, at most 10 MB, the type read from the bytes. */
export const kycDocumentBytesMax = 10 * 1024 * 1024;
export const kycDocumentMediaTypes = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export type KycDocumentMediaType = (typeof kycDocumentMediaTypes)[number];

export const kycDocumentTooLargeMessage = 'The file is larger than 10 MB.';
export const kycDocumentTypeMessage = 'The file must be a JPEG, PNG or PDF.';
export const kycDocumentEmptyMessage = 'The file is empty.';
export const kycUploadFailedMessage = 'Error uploading image. Please try again.';
export const kycUploadedMessage = 'Image uploaded successfully';
export const kycSubmitFailedMessage = 'Error submitting KYC request. Please try again.';
export const kycPendingMessage =
  'Your verification is pending review. We will notify you when it is decided.';
export const kycAlreadyPendingMessage = 'You already have a verification pending review.';
export const kycAlreadyDecidedMessage = 'This verification was already decided.';
export const kycTooYoungMessage = 'You must be 18 or older';
export const kycImplausibleBirthMessage = 'Enter your real date of birth';

/** Whether someone born on `dateOfBirth` (YYYY-MM-DD) is 18 or older on `today` (UTC). */
export function isAdultOn(dateOfBirth: string, today: Date): boolean {
  const [year, month, day] = dateOfBirth.split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined) return false;
  const adultFrom = Date.UTC(year + kycMinimumAgeYears, month - 1, day);
  return adultFrom <= today.getTime();
}

/**
 * Whether someone born on `dateOfBirth` (YYYY-MM-DD) is at most the oldest age Coffer takes
 * (120) on `today` (UTC). It also keeps out year 0, which JavaScript reads as a date and
 * PostgreSQL refuses: its calendar has no year 0.
 */
export function isWithinMaximumAgeOn(dateOfBirth: string, today: Date): boolean {
  const [year, month, day] = dateOfBirth.split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined || year < 1) return false;
  const tooOldFrom = Date.UTC(year + kycMaximumAgeYears + 1, month - 1, day);
  return today.getTime() < tooOldFrom;
}

const isoDatePattern = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar date, YYYY-MM-DD. */
function isCalendarDate(text: string): boolean {
  if (!isoDatePattern.test(text)) return false;
  const parsed = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(text);
}

export const dateOfBirthSchema = z.string({ error: 'Enter your date of birth' }).check(
  z.minLength(1, 'Enter your date of birth'),
  z.refine(isCalendarDate, 'Enter your date of birth as YYYY-MM-DD'),
  z.refine(
    (text) => !isCalendarDate(text) || isWithinMaximumAgeOn(text, new Date()),
    kycImplausibleBirthMessage,
  ),
  z.refine((text) => !isCalendarDate(text) || isAdultOn(text, new Date()), kycTooYoungMessage),
);

export const legalNameLengthMax = 100;
export const legalNameMissingMessage = 'Enter your legal name as it is on your ID';
export const legalNameCharactersMessage = 'Use letters, spaces, hyphens, apostrophes and dots only';

/**
 * A legal name: letters of any script (with their combining marks: Arabic vowel signs,
 * Devanagari, decomposed accents), spaces, hyphens, apostrophes (straight or typographic)
 * and dots, starting with a letter. Nothing a page or a PDF could read as markup or
 * reorder (a bidirectional override is refused first, with the text schema's own message).
 */
const legalNamePattern = /^[\p{L}\p{M}][\p{L}\p{M} .'’-]*$/u;

export const legalNameSchema = singleLineText({
  max: legalNameLengthMax,
  missing: legalNameMissingMessage,
}).check(
  z.minLength(1, legalNameMissingMessage),
  z.refine((text) => text === '' || legalNamePattern.test(text), legalNameCharactersMessage),
);

export const kycSubmissionBodySchema = z.object({
  legalName: legalNameSchema,
  idType: z.enum(kycIdTypes, { error: 'Choose the type of ID' }),
  idNumber: singleLineText({ max: 50, missing: 'Enter the ID number' }).check(
    z.minLength(1, 'Enter the ID number'),
  ),
  address: multiLineText({ max: 300, missing: 'Enter your address' }).check(
    z.minLength(1, 'Enter your address'),
  ),
  dateOfBirth: dateOfBirthSchema,
  documentId: z.uuid({ error: 'Upload your ID document' }),
});
export type KycSubmissionBody = z.infer<typeof kycSubmissionBodySchema>;

export const kycDocumentSchema = z.object({
  id: z.string(),
  mediaType: z.enum(kycDocumentMediaTypes),
  sizeBytes: z.number().check(z.int()),
});
export type KycDocument = z.infer<typeof kycDocumentSchema>;

/** A submission as its customer sees it. */
export const kycSubmissionSchema = z.object({
  id: z.string(),
  idType: z.enum(kycIdTypes),
  status: z.enum(kycStatuses),
  reason: z.nullable(z.string()),
  createdAt: z.string(),
  decidedAt: z.nullable(z.string()),
});
export type KycSubmission = z.infer<typeof kycSubmissionSchema>;

/**
 * The /kyc page: the latest submission (null: none yet), the account's level, and the days
 * a rejected or superseded document is kept (for the privacy note).
 */
/**
 * What the customer typed in a rejected submission, to start the next one from (issue #31
 * item 10). Not the document: a new one is uploaded (kyc-form says why).
 */
export const kycRejectedDetailsSchema = z.object({
  /** Null for a submission made before the form asked for it. */
  legalName: z.nullable(z.string()),
  idType: z.enum(kycIdTypes),
  idNumber: z.string(),
  address: z.string(),
  dateOfBirth: z.string(),
});
export type KycRejectedDetails = z.infer<typeof kycRejectedDetailsSchema>;

export const kycOverviewSchema = z.object({
  level: z.number().check(z.int()),
  retentionDays: z.number().check(z.int()),
  latest: z.nullable(kycSubmissionSchema),
  /** The latest submission's details when it was rejected; null otherwise. */
  rejectedDetails: z.nullable(kycRejectedDetailsSchema),
});
export type KycOverview = z.infer<typeof kycOverviewSchema>;

/** A submission as staff review it. */
export const staffKycSubmissionSchema = z.extend(kycSubmissionSchema, {
  user: z.object({ id: z.string(), username: z.string(), email: z.string() }),
  /** The legal name typed in this submission; null if made before the form asked for it. */
  legalName: z.nullable(z.string()),
  idNumber: z.string(),
  address: z.string(),
  dateOfBirth: z.string(),
  document: z.object({
    mediaType: z.enum(kycDocumentMediaTypes),
    sizeBytes: z.number().check(z.int()),
    sha256: z.string(),
    /** False once retention removed the file. */
    isAvailable: z.boolean(),
  }),
  reviewer: z.nullable(z.object({ id: z.string(), username: z.string() })),
});
export type StaffKycSubmission = z.infer<typeof staffKycSubmissionSchema>;

export const staffKycSubmissionListSchema = z.object({ items: z.array(staffKycSubmissionSchema) });
