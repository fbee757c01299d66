import {
  forgotPasswordResponseSchema,
  loginResponseSchema,
  meSchema,
} from '@coffer/contracts/auth';
import type { SignupBody } from '@coffer/contracts/signup';
import { z } from 'zod/mini';
import { apiRequest, noContentSchema } from '../../lib/api-client.ts';

const signedInUserSchema = z.object({ user: meSchema });
export const secondFactorResponseSchema = z.object({
  status: z.literal('signed_in'),
  user: meSchema,
});

export function signUp(body: SignupBody) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/auth/signup',
    body,
    schema: signedInUserSchema,
  });
}

export function logIn(body: { email: string; password: string }) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/auth/login',
    body,
    schema: loginResponseSchema,
  });
}

export function submitSecondFactor(body: { challengeToken: string; code: string }) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/auth/login/second-factor',
    body,
    schema: secondFactorResponseSchema,
  });
}

export function requestPasswordReset(body: { email: string }) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/auth/forgot-password',
    body,
    schema: forgotPasswordResponseSchema,
  });
}

export function resetPassword(body: { token: string; password: string }) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/auth/reset-password',
    body,
    schema: noContentSchema,
  });
}

export function verifyEmail(token: string) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/auth/verify-email',
    body: { token },
    schema: signedInUserSchema,
  });
}
