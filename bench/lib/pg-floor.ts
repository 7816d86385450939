import pg from 'pg';
import { watchBackends } from './pg-backends.ts';

/**
 * The floor of a PostgreSQL round trip on this machine: `clients` connections each sending a named
 * prepared `select $1::int` for `seconds`, as the server's pool sends its statements. Answers the
 * backends' CPU per statement (ms) and the statements a second, beside what a purchase costs.
 */
export async function pgRoundTripFloor(databaseUrl: string, options: { clients: number; seconds: number }): Promise<{ statements: number; perSecond: number; backendMsPerStatement: number }> {
  const clients = await Promise.all(Array.from({ length: options.clients }, async () => {
    const client = new pg.Client({ connectionString: databaseUrl, application_name: 'huiyun-bench-floor' });
    await client.connect();
    return client;
  }));
  const backends = await watchBackends(databaseUrl);
  const before = await backends.cpu();
  const end = Date.now() + options.seconds * 1000;
  let statements = 0;
  const started = Date.now();
  await Promise.all(clients.map(async (client) => {
    while (Date.now() < end) {
      await client.query({ name: 'floor', text: 'select $1::int as n', values: [statements] });
      statements += 1;
    }
  }));
  const seconds = (Date.now() - started) / 1000;
  const cpu = (await backends.cpu()) - before;
  await backends.stop();
  await Promise.all(clients.map((c) => c.end()));
  return { statements, perSecond: statements / seconds, backendMsPerStatement: (cpu * 1000) / Math.max(1, statements) };
}
