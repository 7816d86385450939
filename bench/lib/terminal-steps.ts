import type { DbCalls } from './db-calls.ts';

/** What the server and its database have used so far: CPU seconds of the server's processes and of the database's backends, and the calls. */
export type Reading = { serverCpu: number; pgCpu: number | undefined; calls: DbCalls };

/** Per purchase: CPU in ms, and the calls to the database. */
export type Cost = { name: string; purchases: number; serverCpuMs: number; pgCpuMs: number | undefined; statements: number; roundTrips: number; orderWrites: number };

/** What happened between two readings, per purchase. */
export function costBetween(name: string, before: Reading, after: Reading, purchases: number): Cost {
  const per = (x: number) => x / Math.max(1, purchases);
  return {
    name, purchases,
    serverCpuMs: per((after.serverCpu - before.serverCpu) * 1000),
    pgCpuMs: after.pgCpu === undefined || before.pgCpu === undefined ? undefined : per((after.pgCpu - before.pgCpu) * 1000),
    statements: per(after.calls.statements - before.calls.statements),
    roundTrips: per(after.calls.roundTrips - before.calls.roundTrips),
    orderWrites: per(after.calls.orderWrites - before.calls.orderWrites),
  };
}

/**
 * A purchase's steps one at a time: every machine does the step at once (a wave), then the readings
 * settle (what the server does after answering: shared commits, acknowledgements) before the next.
 * Answers each step's cost per purchase.
 */
export async function measureSteps(read: () => Promise<Reading>, purchases: number, steps: { name: string; run: () => Promise<void> }[]): Promise<Cost[]> {
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
  const costs: Cost[] = [];
  for (const step of steps) {
    await settle();
    const before = await read();
    await step.run();
    await settle();
    costs.push(costBetween(step.name, before, await read(), purchases));
  }
  return costs;
}

/** The costs as a table (markdown), one row each. */
export function costTable(costs: Cost[], dbKind: 'sqlite' | 'postgres'): string {
  const pg = dbKind === 'postgres';
  const lines = [
    `| step | purchases | server CPU ms${pg ? ' | PostgreSQL backends CPU ms | round trips' : ''} | statements | pay_order writes (a counted one appends a pending change by trigger) |`,
    `|---|---:|---:${pg ? '|---:|---:' : ''}|---:|---:|`,
  ];
  for (const c of costs) {
    lines.push(`| ${c.name} | ${c.purchases} | ${c.serverCpuMs.toFixed(3)}${pg ? ` | ${c.pgCpuMs?.toFixed(3) ?? ''} | ${c.roundTrips.toFixed(2)}` : ''} | ${c.statements.toFixed(2)} | ${c.orderWrites.toFixed(2)} |`);
  }
  return lines.join('\n');
}
