import { z } from 'zod';

export const roles = ['customer', 'support', 'admin'] as const;
export type Role = (typeof roles)[number];
export const isStaffRole = (role: Role) => role === 'support' || role === 'admin';

export const passwordLengthMin = 8;
export const passwordLengthMax = 128;
export const usernameLengthMax = 30;

export const fillAllFields = 'Please fill in all fields';

export const emailSchema = z
  .string()
  .trim()
  .min(1, 'Please enter your email address')
  .max(254, 'Invalid email address')
  .pipe(z.email('Invalid email address'))
  .transform((email) => email.toLowerCase());

export const usernameSchema = z
  .string()
  .trim()
  .min(2, 'Use at least 2 characters')
  .max(usernameLengthMax, `Use at most ${usernameLengthMax} characters`)
  .regex(
    /^[\p{L}\p{N}][\p{L}\p{N} ._'-]*$/u,
    'Use letters, digits, spaces, dots, dashes or apostrophes',
  );

/** Length only; the server also refuses guessable passwords (zxcvbn score below 3). */
export const newPasswordSchema = z
  .string()
  .min(1, fillAllFields)
  .min(passwordLengthMin, 'Password is too weak')
  .max(passwordLengthMax, `Use at most ${passwordLengthMax} characters`);

export const loginBodySchema = z.object({
  email: z.string().trim().min(1, 'Please enter both email and password').max(254),
  password: z.string().min(1, 'Please enter both email and password').max(passwordLengthMax),
});

/** A 6-digit authenticator code, or a recovery code like "abcde-fghij". */
export const secondFactorCodeSchema = z
  .string()
  .trim()
  .min(1, 'Enter the code')
  .max(20, 'Wrong verification code. Please try again.');

export const secondFactorBodySchema = z.object({
  challengeToken: z.string().min(1).max(100),
  code: secondFactorCodeSchema,
});

export const meSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  isEmailVerified: z.boolean(),
  role: z.enum(roles),
  level: z.number().int(),
  hasTotp: z.boolean(),
  country: z.string(),
  currency: z.string(),
  /** Set when staff disabled transactions; the customer is told why. */
  frozenReason: z.string().nullable(),
});
export type Me = z.infer<typeof meSchema>;

/** Who is signed in, or null: answered 200 either way, so visitors see no error. */
export const sessionResponseSchema = z.object({ user: meSchema.nullable() });

export const loginResponseSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signed_in'), user: meSchema }),
  z.object({ status: z.literal('second_factor_required'), challengeToken: z.string() }),
]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const forgotPasswordBodySchema = z.object({ email: emailSchema });
export const forgotPasswordResponseSchema = z.object({ message: z.string() });
export const passwordResetEmailSentMessage = 'Password reset email sent! Check your inbox.';

export const tokenBodySchema = z.object({ token: z.string().min(1).max(100) });

export const resetPasswordBodySchema = z.object({
  token: z.string().min(1).max(100),
  password: newPasswordSchema,
});
