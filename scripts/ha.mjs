// `npm run ha`: starts the highly available PostgreSQL of scripts/ha-cluster.mjs, prints
// the DATABASE_URL the API should use on a line of its own, and stops everything it
// started on Ctrl-C or SIGTERM.
import { startHaCluster } from './ha-cluster.mjs';

const log = (line) => console.log(`[ha] ${line}`);
log('starting etcd, two PostgreSQL nodes under Patroni and HAProxy…');
const cluster = await startHaCluster({ log });
log(`primary: ${await cluster.primaryName()}; logs and data in ${cluster.baseDir}`);
log('the API should use:');
console.log(`DATABASE_URL=${cluster.url}`);

let isStopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (isStopping) return;
    isStopping = true;
    log('stopping…');
    cluster.stop().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
