// A real Prometheus (Debian's `prometheus`, installed by `npm test`) scrapes a real instance
// and answers a query about it; `promtool` checks docs/alerts.yml, which that Prometheus
// also loads, and runs its unit tests (docs/alerts.test.yml). In the postgres project
// only: once per suite is enough.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.ts';
import { startMetricsServer } from './metrics.ts';

const docsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs');
const alertRulesPath = path.join(docsDir, 'alerts.yml');

let app: FastifyInstance;
let metricsPort: number;
let closeMetrics = async () => {};
useTestApp(async (opened) => {
  app = opened.app;
  const metricsServer = await startMetricsServer(app, { port: 0, host: '127.0.0.1' });
  metricsPort = metricsServer.port;
  closeMetrics = metricsServer.close;
});

let prometheus: ChildProcess | undefined;
let workDir: string | undefined;
afterAll(async () => {
  if (prometheus?.exitCode === null) {
    const exited = new Promise((resolve) => prometheus?.once('exit', resolve));
    prometheus.kill('SIGTERM');
    await exited;
  }
  if (workDir) await rm(workDir, { recursive: true, force: true });
  await closeMetrics();
});

/** A loopback port nothing listens on right now. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

type QueryAnswer = {
  status: string;
  data: { result: { metric: Record<string, string>; value: [number, string] }[] };
};

describe('Prometheus', () => {
  it('accepts the alert rules (promtool check rules)', async () => {
    const checked = await promisify(execFile)('promtool', ['check', 'rules', alertRulesPath]);
    expect(checked.stdout).toContain('SUCCESS');
  });

  it('fires each alert when it should and not below its threshold (promtool test rules)', async () => {
    // promtool exits non-zero, and execFile rejects, when an expectation fails.
    const tested = await promisify(execFile)('promtool', [
      'test',
      'rules',
      path.join(docsDir, 'alerts.test.yml'),
    ]);
    expect(tested.stdout).toContain('SUCCESS');
  });

  it('scrapes an instance and answers a query about its requests', async () => {
    for (let poll = 0; poll < 3; poll += 1) {
      const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(200);
    }
    workDir = await mkdtemp(path.join(os.tmpdir(), 'coffer-prometheus-'));
    const configPath = path.join(workDir, 'prometheus.yml');
    await writeFile(
      configPath,
      [
        'global:',
        '  scrape_interval: 1s',
        '  evaluation_interval: 1s',
        `rule_files: ['${alertRulesPath}']`,
        'scrape_configs:',
        '  - job_name: coffer',
        '    static_configs:',
        `      - targets: ['127.0.0.1:${metricsPort}']`,
        '',
      ].join('\n'),
    );
    const webPort = await freePort();
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${configPath}`,
        `--storage.tsdb.path=${path.join(workDir, 'data')}`,
        `--web.listen-address=127.0.0.1:${webPort}`,
      ],
      { stdio: 'ignore' },
    );
    const query = async (expression: string) => {
      const url = `http://127.0.0.1:${webPort}/api/v1/query?query=${encodeURIComponent(expression)}`;
      const answer = await fetch(url).catch(() => null);
      if (!answer?.ok) return null;
      return ((await answer.json()) as QueryAnswer).data.result;
    };
    const readyRequests =
      'coffer_http_request_duration_seconds_count{job="coffer",route="/api/health/ready",status="200"}';
    // Prometheus starts, scrapes every second; the answer is the count the instance kept.
    await expect
      .poll(async () => (await query(readyRequests))?.[0]?.value[1], {
        timeout: 60_000,
        interval: 500,
      })
      .toBe('3');
    const up = await query('up{job="coffer"}');
    expect(up?.[0]?.value[1]).toBe('1');
    // The rules loaded and evaluated against the instance: nothing fires on a healthy one.
    const firing = await query('ALERTS{alertstate="firing"}');
    expect(firing).toEqual([]);
  });
});
