import { useState, useSyncExternalStore } from 'react';
import {
  type MutateCallbacks,
  MutationObserver,
  type MutationOptions,
  type MutationState,
} from './mutation.ts';
import { useQueryClient } from './provider.tsx';

export type UseMutationResult<TData = unknown, TError = Error, TVariables = void> = MutationState<
  TData,
  TError,
  TVariables
> & {
  isIdle: boolean;
  isPending: boolean;
  isError: boolean;
  isSuccess: boolean;
  /** Runs the mutation; the same function on every render. */
  mutate: (variables: TVariables, callbacks?: MutateCallbacks<TData, TError, TVariables>) => void;
  /** Back to idle; a call still under way no longer changes the state. */
  reset: () => void;
};

/** A request that changes something on the server, with its state and callbacks. */
export function useMutation<TData = unknown, TError = Error, TVariables = void>(
  options: MutationOptions<TData, TError, TVariables>,
): UseMutationResult<TData, TError, TVariables> {
  const client = useQueryClient();
  const [observer] = useState(() => new MutationObserver(client.mutationCache, options));
  // The latest render's callbacks are the ones a call runs.
  observer.options = options;
  const state = useSyncExternalStore(observer.subscribe, observer.getState, observer.getState);
  return {
    ...state,
    isIdle: state.status === 'idle',
    isPending: state.status === 'pending',
    isError: state.status === 'error',
    isSuccess: state.status === 'success',
    mutate: observer.mutate,
    reset: observer.reset,
  };
}
