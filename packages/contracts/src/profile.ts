import {
  emailSchema,
  newPasswordSchema,
  passwordLengthMax,
  roles,
  secondFactorCodeSchema,
  usernameSchema,
} from './auth.ts';
import { passwordText } from './text.ts';
import { z } from './zod.ts';

export const profileSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  isEmailVerified: z.boolean(),
  /** A new address waiting for its verification link to be followed. */
  pendingEmail: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  country: z.string(),
  countryName: z.string(),
  currency: z.string(),
  /** The zone statements and times follow; `isTimeZoneChosen` false: a default stands in. */
  timeZone: z.string(),
  isTimeZoneChosen: z.boolean(),
  level: z.number().check(z.int()),
  role: z.enum(roles),
  hasTotp: z.boolean(),
  accountNumber: z.nullable(z.string()),
  createdAt: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

export const currentPasswordSchema = passwordText({ max: passwordLengthMax }).check(
  z.minLength(1, 'Enter your current password'),
);

export const updateUsernameBodySchema = z.object({ username: usernameSchema });

/** Security changes offer to sign out every other session at the same time. */
const endOtherSessionsSchema = z._default(z.boolean(), false);

export const changeEmailBodySchema = z.object({
  newEmail: emailSchema,
  currentPassword: currentPasswordSchema,
  endOtherSessions: endOtherSessionsSchema,
});

export const changePasswordBodySchema = z.object({
  currentPassword: currentPasswordSchema,
  newPassword: newPasswordSchema,
  endOtherSessions: z._default(z.boolean(), true),
});

export const totpSetupBodySchema = z.object({ currentPassword: currentPasswordSchema });
export const totpSetupResponseSchema = z.object({
  /** Base32, for typing into an authenticator by hand. */
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The otpauth URL as a QR code image (data: URL, SVG). */
  qrCodeDataUrl: z.string(),
});

export const totpEnableBodySchema = z.object({
  endOtherSessions: endOtherSessionsSchema,
  code: z.string().check(z.trim(), z.regex(/^\d{6}$/, 'Enter the 6-digit code')),
});
export const totpEnableResponseSchema = z.object({
  recoveryCodes: z.array(z.string()).check(z.length(10)),
});

export const totpDisableBodySchema = z.object({
  code: secondFactorCodeSchema,
  endOtherSessions: endOtherSessionsSchema,
});

export const sessionSchema = z.object({
  id: z.string(),
  device: z.string(),
  ipAddress: z.nullable(z.string()),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  isCurrent: z.boolean(),
});
export const sessionListSchema = z.object({ sessions: z.array(sessionSchema) });
export type SessionInfo = z.infer<typeof sessionSchema>;
