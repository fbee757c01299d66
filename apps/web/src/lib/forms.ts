import type { ErrorCode } from '@coffer/contracts/errors';
import { schemaResolver } from '@mantine/form';
import { ApiError } from './api-client.ts';

/**
 * Validates a Mantine form with the contract's own zod schema, so the browser shows the same
 * messages the server would answer with (the server stays the authority).
 */
export function contractResolver(schema: Parameters<typeof schemaResolver>[0]) {
  return schemaResolver(schema, { sync: true });
}

export const passwordsDoNotMatchMessage = 'Passwords do not match';

type FormWithErrors = {
  values: object;
  setFieldError: (path: string, error: string) => void;
};

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
  if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) {
    return error instanceof ApiError && error.code === 'network_error'
      ? error.message
      : options.otherFailureMessage;
  }
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
