import { describe, expect, it, vi } from 'vitest';
import { MutationCache, MutationObserver } from './mutation.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a mutation', () => {
  it('runs its callbacks in order, busy until onSuccess is done, then mutate’s own', async () => {
    const events: string[] = [];
    const refetch = deferred<void>();
    const observer = new MutationObserver<string, Error, number>(new MutationCache(), {
      mutationFn: async (amount) => {
        events.push(`mutationFn ${amount}`);
        return `paid ${amount}`;
      },
      onSuccess: async (data, variables) => {
        events.push(`onSuccess ${data} ${variables}`);
        await refetch.promise;
      },
      onError: () => events.push('onError'),
      onSettled: (data, error) => events.push(`onSettled ${data} ${error}`),
    });
    observer.subscribe(() => events.push(`state ${observer.state.status}`));
    observer.mutate(5, {
      onSuccess: (data) => events.push(`mutate onSuccess ${data}`),
      onSettled: () => events.push('mutate onSettled'),
    });
    await flush();
    expect(observer.state).toMatchObject({ status: 'pending', variables: 5 });
    refetch.resolve();
    await flush();
    expect(events).toEqual([
      'state pending',
      'mutationFn 5',
      'onSuccess paid 5 5',
      'onSettled paid 5 null',
      'state success',
      'mutate onSuccess paid 5',
      'mutate onSettled',
    ]);
    expect(observer.state).toMatchObject({ status: 'success', data: 'paid 5', error: null });
  });

  it('on failure runs the cache’s onError, its own, then mutate’s, and keeps the error', async () => {
    const events: string[] = [];
    const failure = new Error('refused');
    const cache = new MutationCache({ onError: (error) => events.push(`cache ${error.message}`) });
    const observer = new MutationObserver<string, Error, void>(cache, {
      mutationFn: async () => {
        throw failure;
      },
      onSuccess: () => events.push('onSuccess'),
      onError: (error) => events.push(`onError ${error.message}`),
      onSettled: (data, error) => events.push(`onSettled ${data} ${error?.message}`),
    });
    observer.subscribe(() => {});
    observer.mutate(undefined, {
      onSuccess: () => events.push('mutate onSuccess'),
      onError: (error) => events.push(`mutate onError ${error.message}`),
    });
    await flush();
    expect(events).toEqual([
      'cache refused',
      'onError refused',
      'onSettled undefined refused',
      'mutate onError refused',
    ]);
    expect(observer.state).toMatchObject({ status: 'error', error: failure });
    observer.reset();
    expect(observer.state).toMatchObject({ status: 'idle', error: null, data: undefined });
  });

  it('fails when onSuccess throws', async () => {
    const observer = new MutationObserver<number, Error, void>(new MutationCache(), {
      mutationFn: async () => 1,
      onSuccess: () => {
        throw new Error('could not refresh');
      },
    });
    observer.mutate();
    await flush();
    expect(observer.state.status).toBe('error');
    expect(observer.state.error?.message).toBe('could not refresh');
  });

  it('shows the latest call only, and runs mutate’s callbacks only while shown', async () => {
    const answers = [deferred<string>(), deferred<string>()];
    let call = 0;
    const onSuccess = vi.fn();
    const observer = new MutationObserver<string, Error, string>(new MutationCache(), {
      mutationFn: () => (answers[call++] as (typeof answers)[number]).promise,
      onSuccess,
    });
    const unsubscribe = observer.subscribe(() => {});
    const first = vi.fn();
    const second = vi.fn();
    observer.mutate('approve', { onSuccess: first });
    observer.mutate('reject', { onSuccess: second });
    answers[1]?.resolve('rejected');
    await flush();
    answers[0]?.resolve('approved');
    await flush();
    expect(observer.state).toMatchObject({
      status: 'success',
      data: 'rejected',
      variables: 'reject',
    });
    expect(second).toHaveBeenCalledWith('rejected', 'reject');
    expect(first).not.toHaveBeenCalled();
    // The options' callbacks belong to every call.
    expect(onSuccess).toHaveBeenCalledTimes(2);

    unsubscribe();
    const third = deferred<string>();
    answers.push(third);
    const unseen = vi.fn();
    observer.mutate('again', { onSuccess: unseen });
    third.resolve('done');
    await flush();
    expect(unseen).not.toHaveBeenCalled();
    expect(onSuccess).toHaveBeenCalledTimes(3);
  });

  it('gives mutate the same function on every call', () => {
    const observer = new MutationObserver(new MutationCache(), { mutationFn: async () => 1 });
    const { mutate, reset } = observer;
    expect(observer.mutate).toBe(mutate);
    expect(observer.reset).toBe(reset);
  });
});
