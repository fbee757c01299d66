import { type ErrorCode, errorCodes } from '@coffer/contracts/errors';
import { schemaResolver, type UseFormReturnType, useForm } from '@mantine/form';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import type { ZodMiniType } from 'zod/mini';
import { contractText } from './api-client.ts';
import { type FormWithErrors, showApiErrorOnForm } from './form-refusals.ts';

/**
 * Validates a Mantine form with the contract's own zod schema, so the browser shows the same
 * messages the server would answer with (the server stays the authority).
 */
export function contractResolver(schema: Parameters<typeof schemaResolver>[0]) {
  const resolve = schemaResolver(schema, { sync: true });
  // The contract's refusals are English, their ids: shown in the page's language.
  return (values: Parameters<typeof resolve>[0]) =>
    Object.fromEntries(
      Object.entries(resolve(values)).map(([field, message]) => [
        field,
        typeof message === 'string' ? contractText(message) : message,
      ]),
    );
}

export const passwordsDoNotMatchMessage = 'Passwords do not match';

// Kept apart so money forms' hook (use-money-action.ts) does not load Mantine's form.
export { type FormWithErrors, showApiErrorOnForm };

/**
 * A form checked by a contract schema and sent by a feature's mutation hook: the one way a
 * form shows the server's answer. The schema's parse gives the body (or `toBody`, where the
 * form has fields the request does not, e.g. a password confirmation); a failure goes beside
 * its field or, when it belongs to none, into `formError` above the form.
 */
export function useContractForm<Values extends Record<string, unknown>, Body, Result>(options: {
  schema: ZodMiniType<Body>;
  initialValues: Values;
  mutation: UseMutationResult<Result, Error, Body>;
  toBody?: (values: Values) => Body;
  onSuccess?: (result: Result, body: Body) => void;
  /** Before the failure is shown, e.g. to empty a password the person must type again. */
  onError?: (form: UseFormReturnType<Values>) => void;
  fieldsByCode?: Partial<Record<ErrorCode, string>>;
  /** The form's words for a failure the server did not explain (PRODUCT.md section 4). */
  otherFailureMessage?: string;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: options.initialValues,
    validate: contractResolver(options.schema),
  });
  const onSubmit = form.onSubmit((values) => {
    setFormError(null);
    const body = options.toBody ? options.toBody(values) : options.schema.parse(values);
    options.mutation.mutate(body, {
      onSuccess: (result) => options.onSuccess?.(result, body),
      onError: (error) => {
        options.onError?.(form);
        setFormError(
          showApiErrorOnForm(form, error, {
            otherFailureMessage: options.otherFailureMessage ?? errorCodes.internal.message,
            ...(options.fieldsByCode ? { fieldsByCode: options.fieldsByCode } : {}),
          }),
        );
      },
    });
  });
  return { form, formError, onSubmit, isPending: options.mutation.isPending };
}
