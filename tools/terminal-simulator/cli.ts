// `npm run terminal -- --server URL --admin admin:PASS --machines N --rate R --dispense-fail 0.02 --abandon 0.1
//  [--duration SECONDS] [--purchases N] [--prefix TERM] [--config NAME]`: N simulated vending machines against a
// running server (docs/terminal-protocol.md), made or reused through the console API, selling end to end
// through the simulator gateway — or, with --config, through that 支付配置's gateway (e.g. a fake of
// `npm run fake-gateways -- --seed`) — with a live line and a summary.
import { prepareMachines } from './setup.ts';
import { emptyStats, runTerminals, type TerminalStats } from './run-terminals.ts';

export const USAGE = `npm run terminal -- --server http://127.0.0.1:3000 --admin admin:PASSWORD [--machines 10] [--rate 5]
  [--dispense-fail 0.02] [--abandon 0.1] [--duration 60] [--purchases N] [--prefix TERM] [--config 支付配置名称]`;

export type TerminalCli = {
  server: string; admin: string; password: string; machines: number; rate: number; dispenseFail: number; abandon: number;
  durationMs?: number; purchases?: number; prefix: string; config?: string; help: boolean;
};

export function parseTerminalArgs(argv: string[]): TerminalCli {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const num = (name: string, fallback: number, min: number, max: number) => {
    const text = get(name);
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value < min || value > max) throw new Error(`--${name} must be a number from ${min} to ${max}`);
    return value;
  };
  const help = argv.includes('--help') || argv.includes('-h');
  const server = get('server') ?? 'http://127.0.0.1:3000';
  const [admin = 'admin', password = ''] = (get('admin') ?? 'admin:').split(/:(.*)/s);
  if (!help && !password) throw new Error(`--admin user:password is required\n${USAGE}`);
  const duration = get('duration');
  const purchases = get('purchases');
  return {
    server, admin, password, help,
    machines: num('machines', 10, 1, 10_000), rate: num('rate', 5, 0.01, 100_000),
    dispenseFail: num('dispense-fail', 0.02, 0, 1), abandon: num('abandon', 0.1, 0, 1),
    ...(duration ? { durationMs: num('duration', 60, 1, 86_400) * 1000 } : {}),
    ...(purchases ? { purchases: num('purchases', 1, 1, 1_000_000) } : {}),
    prefix: get('prefix') ?? 'TERM',
    ...(get('config') ? { config: get('config') } : {}),
  };
}

export function formatLine(s: TerminalStats, elapsedMs: number): string {
  const perSecond = elapsedMs > 0 ? (s.created / (elapsedMs / 1000)).toFixed(1) : '0.0';
  return `online ${s.online}/${s.machines} · orders ${s.created} (${perSecond}/s) · paid ${s.paid} · dispensed ${s.dispensed} · failed ${s.failed} · refunded ${s.refunded} · abandoned ${s.abandoned} · refused ${s.refused} · errors ${s.errors}`;
}

async function main(argv: string[]): Promise<number> {
  const cli = parseTerminalArgs(argv);
  if (cli.help) {
    console.log(USAGE);
    return 0;
  }
  console.log(`Preparing ${cli.machines} machines ${cli.prefix}-1 … ${cli.prefix}-${cli.machines} on ${cli.server} …`);
  const machines = await prepareMachines({ server: cli.server, admin: cli.admin, password: cli.password, count: cli.machines, prefix: cli.prefix, ...(cli.config ? { config: cli.config } : {}) });
  if (cli.config) console.log(`Bound to 支付配置 ${cli.config}: the customers pay on its gateway's page.`);
  console.log(`Selling: ${cli.rate} purchases/s, dispense failures ${cli.dispenseFail}, abandoned ${cli.abandon}. Ctrl+C stops.`);
  const stats = emptyStats(machines.length);
  const started = Date.now();
  let stopped = false;
  process.once('SIGINT', () => void (stopped = true));
  const live = setInterval(() => {
    const line = formatLine(stats, Date.now() - started);
    if (process.stdout.isTTY) process.stdout.write(`\r${line}\u001b[K`);
    else console.log(line);
  }, 1000);
  try {
    await runTerminals({ server: cli.server, machines, rate: cli.rate, dispenseFail: cli.dispenseFail, abandon: cli.abandon, durationMs: cli.durationMs, purchases: cli.purchases, stopped: () => stopped }, stats);
  } finally {
    clearInterval(live);
  }
  console.log(`\nSummary: ${formatLine(stats, Date.now() - started)}${stats.lastError ? `\nlast refusal/error: ${stats.lastError}` : ''}`);
  return stats.errors > 0 ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
