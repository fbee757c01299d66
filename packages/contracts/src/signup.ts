// Sign-up's own fields, apart from auth.ts: the numbering plans and the country list are
// large, and every page that checks the session imports auth.ts.
import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import {
  emailSchema,
  fillAllFields,
  newPasswordSchema,
  usernameLengthMax,
  usernameSchema,
} from './auth.ts';
import { findCountry } from './countries.ts';
import { acceptedTermsVersionSchema } from './terms.ts';
import { singleLineText } from './text.ts';
import { z } from './zod.ts';

const invalidPhoneMessage = 'Enter a valid international number, like +1 415 555 2671';

/** International format, checked against the numbering plan; stored as E.164. */
export const phoneSchema = z.pipe(
  singleLineText({ max: 40, tooLong: invalidPhoneMessage }).check(
    z.minLength(1, fillAllFields),
    z.refine((phone) => isValidPhoneNumber(phone), invalidPhoneMessage),
  ),
  z.transform((phone) => parsePhoneNumberFromString(phone)?.format('E.164') ?? phone),
);

export const countryCodeSchema = z
  .string()
  .check(z.refine((code) => findCountry(code) !== undefined, 'Choose a country from the list'));

export const signupBodySchema = z.object({
  username: z.pipe(
    singleLineText({ max: usernameLengthMax }).check(z.minLength(1, fillAllFields)),
    usernameSchema,
  ),
  email: z.pipe(
    singleLineText({ max: 254, tooLong: 'Invalid email address' }).check(
      z.minLength(1, fillAllFields),
    ),
    emailSchema,
  ),
  phone: phoneSchema,
  password: newPasswordSchema,
  country: countryCodeSchema,
  /**
   * The version of the terms and privacy notice the person read and accepted, where the
   * operator published them (GET /public/terms); the server refuses a missing or old one.
   */
  acceptedTermsVersion: z.optional(acceptedTermsVersionSchema),
});
export type SignupBody = z.input<typeof signupBodySchema>;
