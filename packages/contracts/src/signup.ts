// Sign-up's own fields, apart from auth.ts: the numbering plans and the country list are
// large, and every page that checks the session imports auth.ts.
import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { emailSchema, fillAllFields, newPasswordSchema, usernameSchema } from './auth.ts';
import { findCountry } from './countries.ts';

/** International format, checked against the numbering plan; stored as E.164. */
export const phoneSchema = z
  .string()
  .trim()
  .min(1, fillAllFields)
  .refine(
    (phone) => isValidPhoneNumber(phone),
    'Enter a valid international number, like +1 415 555 2671',
  )
  .transform((phone) => parsePhoneNumberFromString(phone)?.format('E.164') ?? phone);

export const countryCodeSchema = z
  .string()
  .refine((code) => findCountry(code) !== undefined, 'Choose a country from the list');

export const signupBodySchema = z.object({
  username: z.string().trim().min(1, fillAllFields).pipe(usernameSchema),
  email: z.string().trim().min(1, fillAllFields).pipe(emailSchema),
  phone: phoneSchema,
  password: newPasswordSchema,
  country: countryCodeSchema,
});
export type SignupBody = z.input<typeof signupBodySchema>;
