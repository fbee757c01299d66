// Installs Debian packages the test command and the local servers need (chromium,
// PostgreSQL, Patroni, etcd, HAProxy), updating the package lists once per process.
import { execFileSync } from 'node:child_process';

let hasRunAptUpdate = false;

/** @param {string[]} packages */
export function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!hasRunAptUpdate) {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    hasRunAptUpdate = true;
  }
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
    stdio: 'inherit',
    env,
  });
}
