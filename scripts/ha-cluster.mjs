// A highly available PostgreSQL on one machine, for `npm run ha` and the failover tests:
// one etcd member, two PostgreSQL nodes under Patroni with synchronous replication, and
// HAProxy in front, sending connections to whichever node Patroni's REST API calls the
// primary (docs/decisions/037). Every port is a free one and every file lives in one temp
// directory, so two runs on one machine never meet. Installs Debian's patroni, etcd and
// haproxy when they are missing.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { aptInstall } from './apt-install.mjs';
import { ensurePostgresBinaries, freePort, serverUser } from './postgres-server.mjs';

const programsByPackage = {
  patroni: '/usr/bin/patroni',
  'python3-etcd': '/usr/lib/python3/dist-packages/etcd/__init__.py',
  'etcd-server': '/usr/bin/etcd',
  'etcd-client': '/usr/bin/etcdctl',
  haproxy: '/usr/sbin/haproxy',
};

/** Installs Patroni (with its etcd client library), etcd and HAProxy when any is missing. */
export function ensureHaPrograms() {
  const missing = Object.entries(programsByPackage)
    .filter(([, file]) => !existsSync(file))
    .map(([name]) => name);
  if (missing.length === 0) return;
  console.log(`[ha] installing Debian ${missing.join(', ')}…`);
  aptInstall(missing);
  const stillMissing = Object.entries(programsByPackage).filter(([, file]) => !existsSync(file));
  if (stillMissing.length > 0) {
    throw new Error(`installed but not found: ${stillMissing.map(([, file]) => file).join(', ')}`);
  }
}

const readyWaitMaxMs = 120_000;
const processStopWaitMaxMs = 30_000;

/**
 * Patroni's timings: the leader key lives `ttl` seconds, so a primary killed outright is
 * replaced once its key expires. Short here, so that a failover test takes seconds;
 * production keeps Patroni's 30 (docs/OPERATIONS.md). loop_wait + 2 × retry_timeout must
 * stay under ttl.
 */
const patroniTtlSeconds = 10;
const patroniLoopWaitSeconds = 1;
const patroniRetryTimeoutSeconds = 4;

function patroniConfig({ scope, name, baseDir, binDir, etcdPort, restPort, postgresPort }) {
  const nodeDir = path.join(baseDir, name);
  return JSON.stringify(
    {
      scope,
      name,
      log: { level: 'WARNING' },
      restapi: { listen: `127.0.0.1:${restPort}`, connect_address: `127.0.0.1:${restPort}` },
      etcd3: { host: `127.0.0.1:${etcdPort}` },
      bootstrap: {
        dcs: {
          ttl: patroniTtlSeconds,
          loop_wait: patroniLoopWaitSeconds,
          retry_timeout: patroniRetryTimeoutSeconds,
          maximum_lag_on_failover: 1_048_576,
          synchronous_mode: true,
          postgresql: {
            use_pg_rewind: true,
            parameters: { max_connections: 300, wal_log_hints: 'on', hot_standby: 'on' },
          },
        },
        initdb: [{ encoding: 'UTF8' }, 'no-sync'],
        // Loopback only, without passwords: a throwaway cluster on one machine.
        pg_hba: [
          'local all all trust',
          'host all all 127.0.0.1/32 trust',
          'host replication all 127.0.0.1/32 trust',
        ],
      },
      postgresql: {
        listen: `127.0.0.1:${postgresPort}`,
        connect_address: `127.0.0.1:${postgresPort}`,
        data_dir: path.join(nodeDir, 'data'),
        bin_dir: binDir,
        pgpass: path.join(nodeDir, 'pgpass'),
        authentication: {
          superuser: { username: 'coffer', password: 'coffer' },
          replication: { username: 'replicator', password: 'replicator' },
          rewind: { username: 'coffer', password: 'coffer' },
        },
        parameters: { unix_socket_directories: nodeDir },
        // A killed primary that cannot be rewound is copied anew from the new one.
        remove_data_directory_on_rewind_failure: true,
        remove_data_directory_on_diverged_timelines: true,
      },
    },
    null,
    2,
  );
}

function haproxyConfig({ port, nodes }) {
  // Patroni's REST API answers GET /primary with 200 on the primary only. A node marked
  // down has its connections cut (on-marked-down), so nobody keeps writing to a node
  // that is no longer the primary. Idle timeouts are long: the API's LISTEN connection
  // stays open between payments.
  return [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode tcp',
    '  timeout connect 2s',
    '  timeout client 30m',
    '  timeout server 30m',
    '  timeout check 2s',
    'listen primary',
    `  bind 127.0.0.1:${port}`,
    '  option httpchk GET /primary',
    '  http-check expect status 200',
    '  default-server inter 1s fall 2 rise 1 on-marked-down shutdown-sessions',
    ...nodes.map(
      (node) => `  server ${node.name} 127.0.0.1:${node.postgresPort} check port ${node.restPort}`,
    ),
    '',
  ].join('\n');
}

async function fetchJson(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return { status: response.status, body: await response.json() };
  } catch {
    return null;
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The processes working in `dir`: PostgreSQL's server and every process it forked (each
 * backend, the WAL sender …) run in their data directory.
 */
function processesWorkingIn(dir) {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`) === dir;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function waitForExit(pid, waitMaxMs) {
  const deadline = Date.now() + waitMaxMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  return !isAlive(pid);
}

/**
 * @param {{ log?: (line: string) => void }} options
 * @returns {Promise<{ url: string, baseDir: string, primaryName: () => Promise<string | null>,
 *   killPrimary: () => Promise<string>, waitForPrimary: (except?: string) => Promise<string>,
 *   stop: () => Promise<void> }>}
 */
export async function startHaCluster(options = {}) {
  const log = options.log ?? (() => {});
  ensureHaPrograms();
  const binDir = ensurePostgresBinaries();
  const user = serverUser();
  const runAs = user ? { uid: user.uid, gid: user.gid } : {};
  const baseDir = mkdtempSync(path.join(os.tmpdir(), 'coffer-ha-'));
  chmodSync(baseDir, 0o700);
  if (user) chownSync(baseDir, user.uid, user.gid);

  /** @type {Map<string, import('node:child_process').ChildProcess>} */
  const children = new Map();
  const startChild = (name, command, args, spawnOptions = {}) => {
    const logFile = path.join(baseDir, `${name}.log`);
    const out = openSync(logFile, 'a');
    const child = spawn(command, args, { stdio: ['ignore', out, out], ...spawnOptions });
    children.set(name, child);
    return child;
  };

  const etcdPort = await freePort();
  const etcdPeerPort = await freePort();
  const haproxyPort = await freePort();
  const nodes = [];
  for (const name of ['node1', 'node2']) {
    nodes.push({ name, restPort: await freePort(), postgresPort: await freePort() });
  }
  const scope = path.basename(baseDir);

  const stop = async () => {
    // Patroni stops its PostgreSQL on SIGTERM; etcd and HAProxy go after it.
    for (const [name, child] of [...children].reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      child.kill('SIGTERM');
      if (!(await waitForExit(child.pid, processStopWaitMaxMs))) {
        log(`${name} did not stop; killing it`);
        child.kill('SIGKILL');
      }
    }
    for (const node of nodes) {
      const pid = postmasterPid(node);
      if (pid && isAlive(pid)) {
        process.kill(pid, 'SIGKILL');
        await waitForExit(pid, processStopWaitMaxMs);
      }
    }
    rmSync(baseDir, { recursive: true, force: true });
  };

  const postmasterPid = (node) => {
    const pidFile = path.join(baseDir, node.name, 'data', 'postmaster.pid');
    if (!existsSync(pidFile)) return null;
    return Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  };

  const memberStates = async () => {
    for (const node of nodes) {
      const answer = await fetchJson(`http://127.0.0.1:${node.restPort}/cluster`);
      if (answer?.status === 200) return answer.body.members ?? [];
    }
    return [];
  };

  const primaryName = async () => {
    for (const node of nodes) {
      const answer = await fetchJson(`http://127.0.0.1:${node.restPort}/primary`);
      if (answer?.status === 200) return node.name;
    }
    return null;
  };

  /** Waits until a node other than `except` is the primary and HAProxy sends writes to it. */
  const waitForPrimary = async (except) => {
    const deadline = Date.now() + readyWaitMaxMs;
    while (Date.now() < deadline) {
      const name = await primaryName();
      if (name && name !== except) return name;
      await sleep(250);
    }
    throw new Error(`no new primary within ${readyWaitMaxMs} ms; logs in ${baseDir}`);
  };

  /** Waits until a node streams as the synchronous standby. */
  const waitForSyncStandby = async () => {
    const deadline = Date.now() + readyWaitMaxMs;
    for (;;) {
      const members = await memberStates();
      if (
        members.some(
          (member) =>
            member.role === 'sync_standby' && ['running', 'streaming'].includes(member.state),
        )
      ) {
        return;
      }
      if (Date.now() > deadline) throw new Error(`no synchronous standby; logs in ${baseDir}`);
      await sleep(250);
    }
  };

  const startPatroni = (node) =>
    startChild(
      `patroni-${node.name}`,
      '/usr/bin/patroni',
      [path.join(baseDir, node.name, 'patroni.yml')],
      {
        ...runAs,
        cwd: path.join(baseDir, node.name),
      },
    );

  try {
    startChild('etcd', '/usr/bin/etcd', [
      '--name=etcd1',
      `--data-dir=${path.join(baseDir, 'etcd')}`,
      `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdPort}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
      `--initial-cluster=etcd1=http://127.0.0.1:${etcdPeerPort}`,
      `--initial-cluster-token=${scope}`,
    ]);
    const etcdDeadline = Date.now() + readyWaitMaxMs;
    while ((await fetchJson(`http://127.0.0.1:${etcdPort}/health`))?.status !== 200) {
      if (Date.now() > etcdDeadline) throw new Error(`etcd did not start; see ${baseDir}/etcd.log`);
      await sleep(200);
    }
    for (const node of nodes) {
      const nodeDir = path.join(baseDir, node.name);
      mkdirSync(nodeDir, { mode: 0o700 });
      if (user) chownSync(nodeDir, user.uid, user.gid);
      const configFile = path.join(nodeDir, 'patroni.yml');
      // YAML is a superset of JSON: Patroni reads this as it is.
      writeFileSync(configFile, patroniConfig({ scope, baseDir, binDir, etcdPort, ...node }));
      if (user) chownSync(configFile, user.uid, user.gid);
      startChild(`patroni-${node.name}`, '/usr/bin/patroni', [configFile], {
        ...runAs,
        cwd: nodeDir,
      });
      // The first node bootstraps the cluster alone; the second then copies it.
      if (node === nodes[0]) await waitForPrimary();
    }
    const haproxyConfigFile = path.join(baseDir, 'haproxy.cfg');
    writeFileSync(haproxyConfigFile, haproxyConfig({ port: haproxyPort, nodes }));
    startChild('haproxy', '/usr/sbin/haproxy', ['-db', '-f', haproxyConfigFile]);

    await waitForSyncStandby();
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url: `postgres://coffer@127.0.0.1:${haproxyPort}/postgres`,
    baseDir,
    primaryName,
    waitForPrimary,
    /**
     * Kills the primary's Patroni and every process of its PostgreSQL with SIGKILL, as a
     * dead machine would. A backend outliving its postmaster would otherwise still take a
     * statement or two on a connection HAProxy has not cut yet.
     */
    async killPrimary() {
      const name = await primaryName();
      const node = nodes.find((candidate) => candidate.name === name);
      if (!node) throw new Error('there is no primary to kill');
      const pid = postmasterPid(node);
      children.get(`patroni-${node.name}`)?.kill('SIGKILL');
      if (pid) process.kill(pid, 'SIGKILL');
      // The postmaster, dead, forks no more: what is left working in its directory is its.
      for (const orphan of processesWorkingIn(path.join(baseDir, node.name, 'data'))) {
        try {
          process.kill(orphan, 'SIGKILL');
        } catch {
          // It ended between the listing and the kill.
        }
      }
      return node.name;
    },
    /**
     * Starts a killed node's Patroni again and waits until it streams as the synchronous
     * standby (Patroni rewinds it with pg_rewind first when it was the primary).
     */
    async restartNode(name) {
      const node = nodes.find((candidate) => candidate.name === name);
      if (!node) throw new Error(`no node ${name}`);
      startPatroni(node);
      await waitForSyncStandby();
    },
    stop,
  };
}
