import { type ErrorCode, errorCodes } from '@coffer/contracts/errors';

/** An expected failure: one of the closed error codes, answered as JSON by the error handler. */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly fields: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    options: { message?: string; fields?: Record<string, string> } = {},
  ) {
    super(options.message ?? errorCodes[code].message);
    this.code = code;
    this.fields = options.fields;
  }

  get status(): number {
    return errorCodes[this.code].status;
  }
}
