import autocannon from 'autocannon';
import { canReadProcessCpu, cpuSeconds } from './process-cpu.ts';
import { benchNumber, reportRecount, smoke } from './smoke.ts';

export type Figures = {
  label: string; requestsPerSecond: number; p50Ms: number; p95Ms: number; errors: number; samples: number;
  /** The serving process's CPU a request (µs), where the bench reads it: the server's own cost, apart from the load generator's. */
  cpuPerRequestUs?: number;
  /** Answers (2xx) whose body was not the expected one, where the case names one (`expectBody`). */
  wrong?: number;
};
/** A case's request; `expectBody`: the body every answer must be (a list page read again gives the same rows and total). */
type HttpCase = { url: string; body: unknown; token: string; connections: number; seconds: number; method?: 'GET' | 'POST'; expectBody?: string };

/** HTTP load with autocannon (the Fastify team's load generator) for a fixed time; p95 from every response. */
export async function measureHttp(label: string, options: HttpCase): Promise<Figures> {
  // a smoke run's fraction of a second: autocannon takes a whole second at least
  if (smoke) {
    let wrong = 0;
    const figures = await measureLoop(label, async () => {
      if ((await requestOk(options)) !== options.expectBody && options.expectBody !== undefined) wrong += 1;
    }, { concurrency: options.connections, seconds: options.seconds });
    return { ...figures, wrong };
  }
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        method: options.method ?? 'POST',
        connections: options.connections,
        duration: options.seconds,
        headers: { 'content-type': 'application/json', token: options.token },
        body: options.method === 'GET' ? undefined : JSON.stringify(options.body),
        ...(options.expectBody === undefined ? {} : { expectBody: options.expectBody }),
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  return {
    label,
    requestsPerSecond: result.requests.total / (result.duration || options.seconds),
    ...percentiles(latencies),
    errors: result.errors + result.non2xx,
    samples: result.requests.total,
    wrong: result.mismatches ?? 0,
  };
}

/** One request of the case; answers its body (a non-2xx answer throws). */
export async function requestOk(options: Pick<HttpCase, 'url' | 'body' | 'token' | 'method'>): Promise<string> {
  const response = options.method === 'GET'
    ? await fetch(options.url, { headers: { token: options.token } })
    : await fetch(options.url, { method: 'POST', headers: { 'content-type': 'application/json', token: options.token }, body: JSON.stringify(options.body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${options.url}: ${response.status}`);
  return text;
}

/** A list page's answer. */
export type ListAnswer = { success: boolean; total?: number; totalBounded?: boolean; data?: unknown[] };

/**
 * What is wrong with a list page's content: its rows are not the page of its total (a full page before the last,
 * the rest on the last, none past it), or its total is not `expectedTotal` (counted apart, in the database).
 */
export function listPageProblems(label: string, answer: ListAnswer, page: number, limit: number, expectedTotal?: number): string[] {
  const problems: string[] = [];
  if (!answer.success || !Array.isArray(answer.data) || typeof answer.total !== 'number') return [`${label}: not a list page: ${JSON.stringify(answer).slice(0, 200)}`];
  if (expectedTotal !== undefined && answer.total !== expectedTotal) problems.push(`${label}: total ${answer.total}, counted ${expectedTotal}`);
  const rows = answer.totalBounded ? limit : Math.max(0, Math.min(limit, answer.total - (page - 1) * limit));
  if (answer.data.length !== rows) problems.push(`${label}: ${answer.data.length} rows on page ${page} of a total of ${answer.total}${answer.totalBounded ? ' (bounded)' : ''}, expected ${rows}`);
  return problems;
}

/** `measureHttp` against the server in process `pid`, with the CPU that process used a request. */
// Before each case, BENCH_WARMUP_REQUESTS of its requests, not counted: the serving process compiles a
// case's code on its first requests, and without them the first case of a run paid for it (用户管理 page 1
// measured 1,193 µs a request first in a run, ~700 µs after the others).
const WARMUP_REQUESTS = benchNumber('BENCH_WARMUP_REQUESTS', 300, 2);

export async function measureServedHttp(label: string, options: HttpCase, pid: number): Promise<Figures> {
  await warmUp(options);
  if (!canReadProcessCpu) return measureHttp(label, options);
  const before = cpuSeconds(pid);
  const figures = await measureHttp(label, options);
  return { ...figures, cpuPerRequestUs: ((cpuSeconds(pid) - before) * 1e6) / Math.max(1, figures.samples) };
}

/** WARMUP_REQUESTS of the case's requests, a few at a time; a failed one fails the case later, counted. */
async function warmUp(options: HttpCase): Promise<void> {
  let left = WARMUP_REQUESTS;
  const worker = async () => {
    while (left-- > 0) await requestOk(options).catch(() => {});
  };
  await Promise.all(Array.from({ length: Math.min(8, options.connections) }, worker));
}

function percentiles(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50Ms: at(0.5), p95Ms: at(0.95) };
}

/** The same work without HTTP: `concurrency` loops calling `run` for `seconds`. */
export async function measureLoop(label: string, run: () => Promise<unknown> | unknown, options: { concurrency: number; seconds: number }): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + options.seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const start = performance.now();
      try {
        await run();
      } catch {
        errors += 1;
      }
      latencies.push(performance.now() - start);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  return { label, requestsPerSecond: latencies.length / elapsed, ...percentiles(latencies), errors, samples: latencies.length };
}

/**
 * The recount of a load bench: every request of every case answered (2xx) with the body the case expects (where it
 * names one), each case measured at least once, and `content`: what the bench found wrong in the answers' rows and totals.
 */
export function reportLoadRecount(results: Figures[], content: string[] = []): void {
  reportRecount([
    ...results.filter((r) => r.errors || r.wrong || !r.samples).map((r) => `${r.label}: ${r.errors} errors, ${r.wrong ?? 0} wrong answers in ${r.samples} requests`),
    ...content,
  ]);
}

export function printTable(title: string, rows: Figures[]): void {
  console.log(`\n${title}`);
  const cpu = rows.some((r) => r.cpuPerRequestUs !== undefined);
  console.log(`| case | req/s | p50 ms | p95 ms | errors | samples |${cpu ? ' server CPU µs a request |' : ''}`);
  console.log(`|---|---:|---:|---:|---:|---:|${cpu ? '---:|' : ''}`);
  for (const r of rows) {
    const cpuCell = cpu ? ` ${r.cpuPerRequestUs?.toFixed(0) ?? ''} |` : '';
    console.log(`| ${r.label} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50Ms.toFixed(1)} | ${r.p95Ms.toFixed(1)} | ${r.errors} | ${r.samples} |${cpuCell}`);
  }
}
