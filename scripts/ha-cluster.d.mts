// Types of ha-cluster.mjs for the TypeScript that starts it (the failover test).
export type HaCluster = {
  /** The DATABASE_URL the API uses: HAProxy, which forwards to the primary. */
  url: string;
  baseDir: string;
  primaryName(): Promise<string | null>;
  /** Kills the primary's Patroni and PostgreSQL with SIGKILL; resolves to its name. */
  killPrimary(): Promise<string>;
  /** Resolves to the primary's name once there is one other than `except`. */
  waitForPrimary(except?: string): Promise<string>;
  /** Starts a killed node again; resolves once it streams as the synchronous standby. */
  restartNode(name: string): Promise<void>;
  stop(): Promise<void>;
};

export function ensureHaPrograms(): void;
export function startHaCluster(options?: { log?: (line: string) => void }): Promise<HaCluster>;
