// The floor bench's constant route: Fastify answering GET /constant with a constant, with the product's
// request log (one line a request, http/request-log.ts) at LOG_LEVEL (default info) written to
// BENCH_SERVE_LOG_FILE — what any request costs before the product's own work. Prints one JSON line `{url}`,
// serves until stdin closes.
import Fastify from 'fastify';
import pino from 'pino';
import { OneLineRequestLog } from '../../server/src/http/request-log.ts';

const app = Fastify({
  logController: new OneLineRequestLog(),
  loggerInstance: pino({ level: process.env.LOG_LEVEL ?? 'info' }, pino.destination({ dest: process.env.BENCH_SERVE_LOG_FILE ?? '/dev/null', sync: true })),
});
app.get('/constant', async () => ({ success: true, msg: '', data: 1 }));
const url = await app.listen({ port: 0, host: '127.0.0.1', backlog: 4096 });
process.stdout.write(`${JSON.stringify({ url })}\n`);
process.stdin.resume();
await new Promise((resolve) => process.stdin.on('end', resolve));
await app.close();
process.exit(0);
