// BENCH_SMOKE=1 runs a bench at a tiny size for a few seconds, its recount still checked: bench/smoke.test.ts
// runs every bench so, so that a bench that no longer runs fails the test suite. Its figures mean nothing.
export const smoke = process.env.BENCH_SMOKE === '1';

/** A size or a duration: the environment's `name` where it is set, else `full`, or `tiny` in a smoke run. */
export function benchNumber(name: string, full: number, tiny: number): number {
  const set = process.env[name];
  return set ? Number(set) : smoke ? tiny : full;
}

/** Prints the recount's verdict (the line bench/smoke.test.ts reads) and makes the run fail when it found a problem. */
export function reportRecount(problems: string[]): void {
  console.log(problems.length ? `RECOUNT FAILED:\n  ${problems.join('\n  ')}` : 'recount: OK');
  if (problems.length) process.exitCode = 1;
}

/** `problems` with `what` added when `actual` is not `expected`. */
export function expectCount(problems: string[], what: string, actual: number, expected: number): void {
  if (actual !== expected) problems.push(`${what}: ${actual}, expected ${expected}`);
}
