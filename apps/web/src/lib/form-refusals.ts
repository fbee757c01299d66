import type { ErrorCode } from '@coffer/contracts/errors';
import { ApiError, contractText } from './api-client.ts';

export type FormWithErrors = {
  values: object;
  setFieldError: (path: string, error: string) => void;
};

/**
 * The words for a failure the server did not explain (no answer, a 5xx): the lost
 * connection's own message, or `otherFailureMessage`; null for an answer it did explain.
 */
export function unexplainedFailureOf(error: unknown, otherFailureMessage: string): string | null {
  if (error instanceof ApiError && error.status !== 0 && error.status < 500) return null;
  return error instanceof ApiError && error.code === 'network_error'
    ? error.message
    : contractText(otherFailureMessage);
}

/**
 * Shows an API failure on a form. The server's per-field messages go beside their fields, as
 * does a code that belongs to one field (`email_in_use` beside the email); whatever is left
 * is returned, to show above the form. A failure the server did not explain (no answer, a
 * 5xx) becomes `otherFailureMessage`, the product's words for "something else went wrong".
 */
export function showApiErrorOnForm(
  form: FormWithErrors,
  error: unknown,
  options: {
    otherFailureMessage: string;
    fieldsByCode?: Partial<Record<ErrorCode, string>>;
  },
): string | null {
  const unexplained = unexplainedFailureOf(error, options.otherFailureMessage);
  if (unexplained !== null || !(error instanceof ApiError)) return unexplained;
  let isShownBesideAField = false;
  for (const [field, message] of Object.entries(error.fields)) {
    if (field in form.values) {
      form.setFieldError(field, message);
      isShownBesideAField = true;
    }
  }
  const codeField = options.fieldsByCode?.[error.code as ErrorCode];
  if (codeField && codeField in form.values) {
    form.setFieldError(codeField, error.message);
    return null;
  }
  return isShownBesideAField ? null : error.message;
}
