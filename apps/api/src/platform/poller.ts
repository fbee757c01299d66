import type { FastifyBaseLogger } from 'fastify';

export type Poller = { kick(): void; stop(): Promise<void> };

/**
 * Runs `runBatch` in this process at a kick (work was just queued) and every `intervalMs`
 * (work queued by another instance, or left by a crash), batch after batch while it says
 * there may be more. Kicks during a run are remembered, not stacked: one more pass follows.
 * A failing batch is logged and the work waits for the next poll. `stop` waits for the run
 * in progress.
 */
export function startPoller(options: {
  intervalMs: number;
  log: FastifyBaseLogger;
  failureMessage: string;
  /** Does one batch; true when there may be more to do. */
  runBatch: () => Promise<boolean>;
}): Poller {
  let isRunning = false;
  let isRunRequested = false;
  let isStopped = false;
  let currentRun: Promise<void> = Promise.resolve();

  async function run(): Promise<void> {
    isRunning = true;
    try {
      do {
        isRunRequested = false;
        while (!isStopped && (await options.runBatch())) {}
      } while (isRunRequested && !isStopped);
    } catch (error) {
      options.log.error({ err: error }, options.failureMessage);
    } finally {
      isRunning = false;
    }
  }

  const kick = () => {
    if (isStopped) return;
    if (isRunning) isRunRequested = true;
    else currentRun = run();
  };
  const timer = setInterval(kick, options.intervalMs);
  timer.unref();
  return {
    kick,
    async stop() {
      isStopped = true;
      clearInterval(timer);
      await currentRun;
    },
  };
}
