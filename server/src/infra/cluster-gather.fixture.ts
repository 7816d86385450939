import cluster from 'node:cluster';
import net from 'node:net';
import { clusterGathering, serveGatherings } from './cluster-gather.ts';

// cluster-gather.test.ts: a primary and four server processes — two answer at once, one only after 10 s, one
// fails. When all four listen, the first gathers and the primary prints what it got (one JSON line) and ends.
const ANSWER_LATE_MS = 10_000;

if (cluster.isPrimary) {
  serveGatherings();
  const asking = cluster.fork({ ROLE: 'prompt' });
  cluster.fork({ ROLE: 'prompt too' });
  cluster.fork({ ROLE: 'late' });
  cluster.fork({ ROLE: 'failing' });
  let listening = 0;
  cluster.on('listening', () => {
    if (++listening === 4) asking.send({ test: 'gather' });
  });
  asking.on('message', (message: { gathered?: unknown }) => {
    if (!message.gathered) return;
    console.log(JSON.stringify(message.gathered));
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill();
    process.exit(0);
  });
} else {
  const role = process.env.ROLE!;
  const gathering = clusterGathering('test', async () => {
    if (role === 'late') await new Promise((resolve) => setTimeout(resolve, ANSWER_LATE_MS));
    if (role === 'failing') throw new Error('no answer');
    return role;
  });
  process.on('message', (message: { test?: string }) => {
    if (message.test === 'gather') void gathering.all().then((answers) => process.send?.({ gathered: answers }));
  });
  net.createServer().listen(0, '127.0.0.1');
}
