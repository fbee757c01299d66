import type { ErrorCode } from '@coffer/contracts/errors';
import type { PasskeyAssertion } from '@coffer/contracts/passkey-assertion';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { ZodMiniType } from 'zod/mini';
import { ApiError, errorMessage } from './api-client.ts';
import { type FormWithErrors, showApiErrorOnForm, unexplainedFailureOf } from './form-refusals.ts';
import { newIdempotencyKey } from './idempotency.ts';

/** Refusals of the step-up code or of the pace: the server keeps none under the key. */
const codeRefusals: ReadonlySet<string> = new Set([
  'step_up_required',
  'wrong_code',
  'passkey_refused',
  'too_many_attempts',
]);

/** Fields that prove who confirms, not what: a step-up code or a passkey's answer. */
const stepUpFields: ReadonlySet<string> = new Set(['stepUpCode', 'stepUpPasskey']);

/** What makes two bodies the same intent: all they carry but the step-up answer. */
function identityOf(body: unknown): string {
  return JSON.stringify(body, (name, value: unknown) =>
    stepUpFields.has(name) ? undefined : typeof value === 'bigint' ? `${value}n` : value,
  );
}

/**
 * Whether the server gave this attempt its final answer: a refusal it keeps under the key
 * (PRODUCT.md, docs/IDEMPOTENCY.md). No answer, a 5xx, an answer still running, a body
 * that could not be read, or a refusal of the step-up code or the pace leaves the intent
 * open, and its retry must reuse the key so it cannot be applied twice.
 */
function isFinalRefusal(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    !error.isRetryable &&
    error.code !== 'idempotency_in_progress' &&
    error.code !== 'invalid_response' &&
    !codeRefusals.has(error.code)
  );
}

/**
 * The Idempotency-Key rule of every money form: one key per intent, the body sent (its
 * step-up code aside, which the server does not count either). The same body keeps its
 * key across retries until it has its final answer, a success or a kept refusal; a
 * changed body (an amount corrected after a refusal) is a new intent with a new key.
 */
export class IntentKeys {
  #open: { identity: string; key: string } | null = null;

  keyFor(body: unknown): string {
    const identity = identityOf(body);
    if (this.#open?.identity !== identity) this.#open = { identity, key: newIdempotencyKey() };
    return this.#open.key;
  }

  /** After an answer: a success or a final refusal closes the intent. */
  settle(error: unknown = null): void {
    if (error === null || isFinalRefusal(error)) this.#open = null;
  }
}

/**
 * The step-up round of a form that may need one: whether the code is asked for from the
 * start or once the server asks, and the contract's check of a typed code
 * (`stepUpCodeSchema`, passed in so pages without a step-up do not load its contract).
 */
export type StepUpRound = { when: 'always' | 'when-asked'; codeSchema: ZodMiniType<string> };

/** How the customer answered the step-up: the typed code, or a passkey's signature. */
export type StepUpAnswer = { stepUpCode?: string; stepUpPasskey?: PasskeyAssertion };

export type MoneyActionOptions<Body extends object, Answer> = {
  /** Sends the body (with `stepUpCode` or `stepUpPasskey` when asked) under the key. */
  send: (body: Body & StepUpAnswer, idempotencyKey: string) => Promise<Answer>;
  onSent: (answer: Answer, body: Body) => unknown;
  stepUp?: StepUpRound;
  /**
   * A refusal the form shows elsewhere (beside a field, in a dialog, outside the form):
   * return true when it took it. Others appear in the form's alert (`failure`).
   */
  onRefused?: (error: ApiError) => boolean;
  /** The form whose fields the server's per-field messages go beside (lib/forms.ts). */
  form?: FormWithErrors;
  /** Codes that belong to one field of `form`, shown beside it. */
  fieldsByCode?: Partial<Record<ErrorCode, string>>;
  /** The product's words for a failure the server did not explain (no answer, a 5xx). */
  unexplainedFailure?: string;
  /** Where the form's message goes instead of `failure` (its FormAlert): a toast. */
  showFailure?: (message: string) => void;
};

/**
 * One way to send money from a form: the Idempotency-Key rule (`IntentKeys`), the step-up
 * round (the code field the form shows while `stepUp.isAsked`, and its errors) and where
 * a refusal appears (`failure`, for the form's FormAlert, unless `onRefused` takes it).
 */
export function useMoneyAction<Body extends object, Answer>(
  options: MoneyActionOptions<Body, Answer>,
) {
  const round = options.stepUp;
  const keys = useRef(new IntentKeys());
  const [failure, setFailure] = useState<string | null>(null);
  const [isCodeAsked, setIsCodeAsked] = useState(round?.when === 'always');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();

  function showRefusal(error: unknown) {
    if (error instanceof ApiError && options.onRefused?.(error)) return;
    const { form, unexplainedFailure, showFailure = setFailure } = options;
    const unexplained = unexplainedFailure ? unexplainedFailureOf(error, unexplainedFailure) : null;
    const message = form
      ? showApiErrorOnForm(form, error, {
          otherFailureMessage: unexplained ?? errorMessage(error),
          ...(options.fieldsByCode ? { fieldsByCode: options.fieldsByCode } : {}),
        })
      : (unexplained ?? errorMessage(error));
    if (message) showFailure(message);
  }

  const mutation = useMutation({
    mutationFn: (body: Body & StepUpAnswer) => options.send(body, keys.current.keyFor(body)),
    onSuccess: (answer, body) => {
      keys.current.settle();
      const { stepUpCode: _code, stepUpPasskey: _passkey, ...sent } = body;
      return options.onSent(answer, sent as Body);
    },
    onError: (error) => {
      keys.current.settle(error);
      if (round && error instanceof ApiError && codeRefusals.has(error.code)) {
        if (isCodeAsked) {
          setCode('');
          setCodeError(error.message);
        }
        setIsCodeAsked(true);
        return;
      }
      showRefusal(error);
    },
  });

  const submit = (body: Body) => {
    if (mutation.isPending) return;
    setFailure(null);
    setCodeError(undefined);
    if (!(round && isCodeAsked)) {
      mutation.mutate(body);
      return;
    }
    const parsed = round.codeSchema.safeParse(code);
    if (parsed.success) mutation.mutate({ ...body, stepUpCode: parsed.data });
    else setCodeError(parsed.error.issues[0]?.message);
  };

  /** Sends the body confirmed by a passkey's answer instead of a typed code. */
  const submitWithPasskey = (body: Body, stepUpPasskey: PasskeyAssertion) => {
    if (mutation.isPending) return;
    setFailure(null);
    setCodeError(undefined);
    mutation.mutate({ ...body, stepUpPasskey });
  };

  const reset = () => {
    setFailure(null);
    setIsCodeAsked(round?.when === 'always');
    setCode('');
    setCodeError(undefined);
  };

  return {
    submit,
    submitWithPasskey,
    isPending: mutation.isPending,
    failure,
    /** Shows a message in the form's alert: a check the form makes before sending. */
    setFailure,
    reset,
    stepUp: {
      isAsked: isCodeAsked,
      code,
      error: codeError,
      /** A passkey answer could not be had (cancelled): said where a wrong code is. */
      setError: (message: string) => setCodeError(message),
      setCode: (typed: string) => {
        setCode(typed);
        setCodeError(undefined);
      },
      /** The challenge refused the payment before any code was sent: no code is asked. */
      refuse: (error: ApiError) => {
        setIsCodeAsked(false);
        showRefusal(error);
      },
      /** The body changed: a code the server asked for was for the other one. */
      forget: () => {
        if (round?.when === 'when-asked') setIsCodeAsked(false);
      },
    },
  };
}

export type MoneyAction<Body extends object, Answer> = ReturnType<
  typeof useMoneyAction<Body, Answer>
>;
