// The KYC upload benchmark: five concurrent 10 MB document uploads over real HTTP to the
// API (streamed, checked, encrypted, written under COFFER_DATA_DIR), against the same bytes
// written with Node's fs to the same directory in the same run; and the API process's RSS
// growth while the uploads run, which only streaming keeps small.
// Run it with `npm run bench:upload` from the repository root; see bench/README.md.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { kycDocumentBytesMax } from '../../packages/contracts/src/kyc.ts';
import { startApi } from '../api/api-server.ts';
import { benchDir, repoRoot } from '../api/config.ts';
import { integerFromEnv } from '../shared/env.ts';
import { readCpuSeconds, readRssMb, sleep } from '../shared/measure.ts';
import { table } from '../shared/report.ts';

const concurrentUploads = integerFromEnv('BENCH_UPLOADS', 5, { min: 1, max: 6 });
// Each round (and the warm-up) has a customer of its own: the API lets one customer upload
// 20 documents an hour. A round moves 50 MB in about a tenth of a second, so five of them.
const rounds = integerFromEnv('BENCH_ROUNDS', 5, { min: 1, max: 20 });
const chunkBytes = 64 * 1024;
const rssSampleMs = 10;
const targets = { rssGrowthMbBelow: 30, throughputRatioAtLeast: 0.5 };
const bytesPerMb = 1024 * 1024;

// PNG signature, IHDR, and the head of one IDAT chunk holding the rest.
const pngHead = Buffer.from(
  `89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de${(kycDocumentBytesMax - 49).toString(16).padStart(8, '0')}49444154`,
  'hex',
);

/** 10 MB (the cap) that start as a PNG; the rest random, as compressed pixels are. */
function documentBytes(): Buffer {
  const bytes = randomBytes(kycDocumentBytesMax);
  pngHead.copy(bytes);
  return bytes;
}

function request(
  url: string,
  options: http.RequestOptions,
  body: Buffer,
): Promise<{ status: number; text: string; cookie: string | undefined }> {
  return new Promise((resolve, reject) => {
    const sent = http.request(url, options, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          text,
          cookie: response.headers['set-cookie']?.[0]?.split(';')[0],
        }),
      );
    });
    sent.on('error', reject);
    // Sent a chunk at a time, as a browser does, so the server never gets it in one piece.
    (async () => {
      for (let offset = 0; offset < body.length; offset += chunkBytes) {
        if (!sent.write(body.subarray(offset, offset + chunkBytes))) {
          await new Promise((drained) => sent.once('drain', drained));
        }
      }
      sent.end();
    })().catch(reject);
  });
}

async function signUp(baseUrl: string, customer: number): Promise<string> {
  const body = Buffer.from(
    JSON.stringify({
      username: 'Upload Bench',
      email: `upload-bench-${Date.now()}-${customer}@example.com`,
      phone: '+14155552671',
      password: 'Plum-Harbor-Lantern-42',
      country: 'US',
    }),
  );
  const answer = await request(
    `${baseUrl}/api/v1/auth/signup`,
    { method: 'POST', headers: { 'content-type': 'application/json' } },
    body,
  );
  if (answer.status !== 201 || !answer.cookie) {
    throw new Error(`sign-up failed: ${answer.status} ${answer.text}`);
  }
  return answer.cookie;
}

async function uploadAll(baseUrl: string, cookie: string, files: Buffer[]): Promise<number> {
  const startedMs = performance.now();
  const answers = await Promise.all(
    files.map((file) =>
      request(
        `${baseUrl}/api/v1/kyc/documents`,
        {
          method: 'POST',
          headers: {
            cookie,
            'content-type': 'application/octet-stream',
            'content-length': String(file.length),
          },
        },
        file,
      ),
    ),
  );
  const elapsedMs = performance.now() - startedMs;
  for (const answer of answers) {
    if (answer.status !== 201) throw new Error(`upload failed: ${answer.status} ${answer.text}`);
  }
  return elapsedMs;
}

async function writeAll(directory: string, files: Buffer[]): Promise<number> {
  const startedMs = performance.now();
  await Promise.all(
    files.map(async (file, index) => {
      const chunks = (function* () {
        for (let offset = 0; offset < file.length; offset += chunkBytes) {
          yield file.subarray(offset, offset + chunkBytes);
        }
      })();
      // Flushed before closing, as the API's storage does.
      await pipeline(
        chunks,
        createWriteStream(path.join(directory, `fs-${index}`), { flush: true }),
      );
    }),
  );
  return performance.now() - startedMs;
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: run `npm run bench:upload`');
  const dataDir = await mkdtemp(path.join(repoRoot, '.tmp-bench-upload-'));
  const yardstickDir = path.join(dataDir, 'fs-yardstick');
  await mkdir(yardstickDir);
  const api = await startApi({
    databaseUrl,
    poolSize: 10,
    webDistDir: path.join(repoRoot, 'apps/web/dist'),
    cpuProfileDir: process.env.BENCH_API_CPU_PROFILE_DIR || null,
    dataDir,
  });
  try {
    const cookies: string[] = [];
    for (let customer = 0; customer <= rounds; customer += 1) {
      cookies.push(await signUp(api.baseUrl, customer));
    }
    const files = Array.from({ length: concurrentUploads }, documentBytes);
    // A warm-up round as wide as the measured ones: the code paths are compiled, and the
    // connections the rounds use (HTTP keep-alive, the database pool) are open, as in a
    // server that has been up for a while. With one upload only, the first round also
    // opened four database connections and ran at half the speed of the others.
    await uploadAll(api.baseUrl, cookies[0] as string, files);
    const totalMb = (concurrentUploads * kycDocumentBytesMax) / bytesPerMb;
    const rows: {
      round: number;
      apiMbPerS: number;
      fsMbPerS: number;
      rssGrowthMb: number;
      apiCpuMsPerMb: number;
      clientCpuMsPerMb: number;
      fsCpuMsPerMb: number;
    }[] = [];
    const apiCpuSeconds = () => readCpuSeconds(api.pid) ?? Number.NaN;
    const ownCpuSeconds = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1e6;
    };
    for (let round = 1; round <= rounds; round += 1) {
      await sleep(500);
      const baselineMb = readRssMb(api.pid);
      let peakMb = baselineMb;
      const sampler = setInterval(() => {
        peakMb = Math.max(peakMb, readRssMb(api.pid));
      }, rssSampleMs);
      const [apiCpuBefore, clientCpuBefore] = [apiCpuSeconds(), ownCpuSeconds()];
      const uploadMs = await uploadAll(api.baseUrl, cookies[round] as string, files);
      const [apiCpuAfter, clientCpuAfter] = [apiCpuSeconds(), ownCpuSeconds()];
      clearInterval(sampler);
      peakMb = Math.max(peakMb, readRssMb(api.pid));
      const fsCpuBefore = ownCpuSeconds();
      const fsMs = await writeAll(yardstickDir, files);
      const fsCpuAfter = ownCpuSeconds();
      rows.push({
        round,
        apiMbPerS: totalMb / (uploadMs / 1000),
        fsMbPerS: totalMb / (fsMs / 1000),
        rssGrowthMb: peakMb - baselineMb,
        // All of the API's threads (the crypto workers too), in /proc's 10 ms ticks.
        apiCpuMsPerMb: ((apiCpuAfter - apiCpuBefore) * 1000) / totalMb,
        clientCpuMsPerMb: ((clientCpuAfter - clientCpuBefore) * 1000) / totalMb,
        fsCpuMsPerMb: ((fsCpuAfter - fsCpuBefore) * 1000) / totalMb,
      });
    }
    const mean = (pick: (row: (typeof rows)[number]) => number) =>
      rows.reduce((sum, row) => sum + pick(row), 0) / rows.length;
    const apiMbPerS = mean((row) => row.apiMbPerS);
    const fsMbPerS = mean((row) => row.fsMbPerS);
    const rssGrowthMb = Math.max(...rows.map((row) => row.rssGrowthMb));
    const apiCpuMsPerMb = mean((row) => row.apiCpuMsPerMb);
    const clientCpuMsPerMb = mean((row) => row.clientCpuMsPerMb);
    const fsCpuMsPerMb = mean((row) => row.fsCpuMsPerMb);
    const loadAverage = os.loadavg()[0] ?? 0;
    const ratio = apiMbPerS / fsMbPerS;
    console.log(
      `${concurrentUploads} concurrent uploads of ${kycDocumentBytesMax / bytesPerMb} MB, ${rounds} rounds\n`,
    );
    console.log(
      table([
        [
          'round',
          'API MB/s',
          'fs MB/s',
          'API RSS growth MB',
          'API CPU ms/MB',
          'client CPU ms/MB',
          'fs CPU ms/MB',
        ],
        ...rows.map((row) => [
          String(row.round),
          row.apiMbPerS.toFixed(1),
          row.fsMbPerS.toFixed(1),
          row.rssGrowthMb.toFixed(1),
          row.apiCpuMsPerMb.toFixed(2),
          row.clientCpuMsPerMb.toFixed(2),
          row.fsCpuMsPerMb.toFixed(2),
        ]),
      ]),
    );
    const verdict = (isMet: boolean) => (isMet ? 'PASS' : 'MISS');
    console.log(
      `\nmean API ${apiMbPerS.toFixed(1)} MB/s vs fs ${fsMbPerS.toFixed(1)} MB/s: ${ratio.toFixed(2)}x (target >= ${targets.throughputRatioAtLeast}x) ${verdict(ratio >= targets.throughputRatioAtLeast)}`,
    );
    console.log(
      `CPU per MB: API ${apiCpuMsPerMb.toFixed(2)} ms (all threads) + client ${clientCpuMsPerMb.toFixed(2)} ms vs fs ${fsCpuMsPerMb.toFixed(2)} ms; load average ${loadAverage.toFixed(1)} on ${os.availableParallelism()} CPUs`,
    );
    console.log(
      `peak API RSS growth ${rssGrowthMb.toFixed(1)} MB (target < ${targets.rssGrowthMbBelow} MB) ${verdict(rssGrowthMb < targets.rssGrowthMbBelow)}`,
    );
    const resultsFile =
      process.env.BENCH_RESULTS_FILE ?? path.join(benchDir, 'results', 'upload.json');
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(
      resultsFile,
      `${JSON.stringify({ date: new Date().toISOString(), concurrentUploads, rounds, rows, apiMbPerS, fsMbPerS, ratio, rssGrowthMb, apiCpuMsPerMb, clientCpuMsPerMb, fsCpuMsPerMb, loadAverage, cpus: os.availableParallelism(), targets }, null, 2)}\n`,
    );
  } finally {
    await api.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
