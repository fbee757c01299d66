import { languageSchema } from './languages.ts';
import { passwordText, singleLineText } from './text.ts';
import { z } from './zod.ts';

export const roles = ['customer', 'support', 'admin'] as const;
export type Role = (typeof roles)[number];
export const isStaffRole = (role: Role) => role === 'support' || role === 'admin';

export const passwordLengthMin = 8;
export const passwordLengthMax = 128;
export const usernameLengthMax = 30;

export const fillAllFields = 'Please fill in all fields';

export const emailSchema = z.pipe(
  z.pipe(
    singleLineText({ max: 254, tooLong: 'Invalid email address' }).check(
      z.minLength(1, 'Please enter your email address'),
    ),
    z.email('Invalid email address'),
  ),
  z.transform((email) => email.toLowerCase()),
);

export const usernameSchema = singleLineText({ max: usernameLengthMax }).check(
  z.minLength(2, 'Use at least 2 characters'),
  z.regex(
    /^[\p{L}\p{N}][\p{L}\p{N} ._'-]*$/u,
    'Use letters, digits, spaces, dots, dashes or apostrophes',
  ),
);

/** Length only; the server also refuses guessable passwords (zxcvbn score below 3). */
export const newPasswordSchema = passwordText({ max: passwordLengthMax }).check(
  z.minLength(1, fillAllFields),
  z.minLength(passwordLengthMin, 'Password is too weak'),
);

const enterBoth = 'Please enter both email and password';

export const loginBodySchema = z.object({
  email: singleLineText({ max: 254 }).check(z.minLength(1, enterBoth)),
  password: passwordText({ max: passwordLengthMax }).check(z.minLength(1, enterBoth)),
});

/** A 6-digit authenticator code, or a recovery code like "abcde-fghij". */
export const secondFactorCodeSchema = singleLineText({
  max: 20,
  tooLong: 'Wrong verification code. Please try again.',
}).check(z.minLength(1, 'Enter the code'));

/** A login challenge, or the token of an emailed link: 43 base64url characters today. */
const tokenSchema = singleLineText({ max: 100 }).check(z.minLength(1));

export const secondFactorBodySchema = z.object({
  challengeToken: tokenSchema,
  code: secondFactorCodeSchema,
});

export const meSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  isEmailVerified: z.boolean(),
  role: z.enum(roles),
  level: z.number().check(z.int()),
  hasTotp: z.boolean(),
  /**
   * Staff on an installation that requires two-factor of them (COFFER_STAFF_TWO_FACTOR):
   * without `hasTotp`, the back office is closed to them until they set it up.
   */
  isTwoFactorRequired: z.boolean(),
  /**
   * The password was set by someone else (npm run create-admin): the API answers nothing
   * but the password change until it is changed, and the web app sends them there.
   */
  mustChangePassword: z.boolean(),
  country: z.string(),
  currency: z.string(),
  /** The IANA zone their days and times are shown in (`customerTimeZone`). */
  timeZone: z.string(),
  /**
   * The language they chose: the app's (signing in adopts it), their emails' and
   * statements'. Null until they choose one: the app follows the browser.
   */
  language: z.nullable(languageSchema),
  /**
   * A customer who has not accepted the operator's current terms and privacy notice (new
   * ones since sign-up): the API answers them nothing else until they do.
   */
  mustAcceptTerms: z.boolean(),
  /** Set when staff disabled transactions; the customer is told why. */
  frozenReason: z.nullable(z.string()),
});
export type Me = z.infer<typeof meSchema>;

/** Who is signed in, or null: answered 200 either way, so visitors see no error. */
export const sessionResponseSchema = z.object({ user: z.nullable(meSchema) });

export const loginResponseSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signed_in'), user: meSchema }),
  z.object({ status: z.literal('second_factor_required'), challengeToken: z.string() }),
]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const forgotPasswordBodySchema = z.object({ email: emailSchema });
export const forgotPasswordResponseSchema = z.object({ message: z.string() });
export const passwordResetEmailSentMessage = 'Password reset email sent! Check your inbox.';

export const tokenBodySchema = z.object({ token: tokenSchema });

export const resetPasswordBodySchema = z.object({
  token: tokenSchema,
  password: newPasswordSchema,
});
