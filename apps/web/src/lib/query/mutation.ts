/** What every mutation of a client does on failure (the app forgets a user whose session ended). */
export class MutationCache {
  readonly config: { onError?: (error: Error) => unknown };

  constructor(config: { onError?: (error: Error) => unknown } = {}) {
    this.config = config;
  }
}

export type MutationStatus = 'idle' | 'pending' | 'success' | 'error';

export type MutationState<TData, TError, TVariables> = {
  status: MutationStatus;
  data: TData | undefined;
  error: TError | null;
  /** What the last `mutate` was called with. */
  variables: TVariables | undefined;
};

export type MutateCallbacks<TData, TError, TVariables> = {
  onSuccess?: (data: TData, variables: TVariables) => unknown;
  onError?: (error: TError, variables: TVariables) => unknown;
  onSettled?: (data: TData | undefined, error: TError | null, variables: TVariables) => unknown;
};

export type MutationOptions<TData, TError, TVariables> = MutateCallbacks<
  TData,
  TError,
  TVariables
> & {
  mutationFn: (variables: TVariables) => Promise<TData>;
};

const idleState = {
  status: 'idle',
  data: undefined,
  error: null,
  variables: undefined,
} as const satisfies MutationState<unknown, unknown, unknown>;

/**
 * One `useMutation`'s calls. Its options' callbacks run (and are awaited) before the state
 * says success or error, so a form stays busy until an `onSuccess` that refetches is done;
 * then `mutate`'s own callbacks run, for the latest call only and only while it is shown.
 */
export class MutationObserver<TData, TError, TVariables> {
  options: MutationOptions<TData, TError, TVariables>;
  state: MutationState<TData, TError, TVariables> = idleState;
  readonly #cache: MutationCache;
  readonly #listeners = new Set<() => void>();
  /** Counts calls: an earlier call's answer leaves the state alone. */
  #callCount = 0;

  constructor(cache: MutationCache, options: MutationOptions<TData, TError, TVariables>) {
    this.#cache = cache;
    this.options = options;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getState = (): MutationState<TData, TError, TVariables> => this.state;

  #setState(state: MutationState<TData, TError, TVariables>): void {
    this.state = state;
    for (const listener of this.#listeners) listener();
  }

  mutate = (
    variables: TVariables,
    callbacks?: MutateCallbacks<TData, TError, TVariables>,
  ): void => {
    // A failure is the state's (and the callbacks'), not an unhandled rejection.
    this.#run(variables, callbacks).catch(() => {});
  };

  reset = (): void => {
    this.#callCount++;
    this.#setState(idleState);
  };

  async #run(
    variables: TVariables,
    callbacks: MutateCallbacks<TData, TError, TVariables> | undefined,
  ): Promise<void> {
    const callId = ++this.#callCount;
    const options = this.options;
    const isLatest = () => callId === this.#callCount;
    this.#setState({ status: 'pending', data: undefined, error: null, variables });
    let data: TData;
    try {
      data = await options.mutationFn(variables);
      await options.onSuccess?.(data, variables);
      await options.onSettled?.(data, null, variables);
    } catch (thrown) {
      const error = thrown as TError;
      try {
        await this.#cache.config.onError?.(thrown as Error);
        await options.onError?.(error, variables);
        await options.onSettled?.(undefined, error, variables);
      } finally {
        if (isLatest()) {
          this.#setState({ status: 'error', data: undefined, error, variables });
          if (this.#listeners.size > 0) {
            callbacks?.onError?.(error, variables);
            callbacks?.onSettled?.(undefined, error, variables);
          }
        }
      }
      return;
    }
    if (!isLatest()) return;
    this.#setState({ status: 'success', data, error: null, variables });
    if (this.#listeners.size > 0) {
      callbacks?.onSuccess?.(data, variables);
      callbacks?.onSettled?.(data, null, variables);
    }
  }
}
