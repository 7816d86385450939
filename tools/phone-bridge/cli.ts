// `npm run phone -- --server URL --code CODE --phone URL --password P [--sim N] [--name NAME]`, or
// `--phones FILE`: phone SIMs running SMSGate as sending devices of the product (docs/phones.md), with
// a live status line per phone and a summary at the end.
import { parseCliArgs, UsageError, USAGE } from './args.ts';
import { startBridge } from './bridge.ts';
import { formatStatus, formatSummary } from './status.ts';

const TTY_REFRESH_MS = 1000;
const LOG_EVERY_MS = 10_000;

async function main(argv: string[]): Promise<number> {
  const cli = parseCliArgs(argv);
  if (cli.help) {
    console.log(USAGE);
    return 0;
  }
  const tty = process.stdout.isTTY === true;
  let drawn = 0;
  // Log lines go above the status block: the block is erased, the line printed, the block drawn again.
  const clear = () => {
    if (tty && drawn > 0) process.stdout.write(`\x1b[${drawn}F\x1b[J`);
    drawn = 0;
  };
  const started = Date.now();
  const bridge = await startBridge({
    server: cli.server,
    phones: cli.phones,
    stateDir: cli.stateDir,
    webhook: cli.webhookUrl && cli.webhookListen ? { url: cli.webhookUrl, ...cli.webhookListen } : undefined,
    log: (line) => {
      clear();
      console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);
    },
  });
  console.log(`${cli.phones.length} phone SIM(s) → ${cli.server}; states by ${bridge.webhookUrl ? `webhooks at ${bridge.webhookUrl} (and polling)` : 'polling'}; journal in ${cli.stateDir}`);
  const show = () => {
    const lines = bridge.stats.map(formatStatus);
    if (tty) {
      // A line wider than the terminal wraps onto two rows, and the block would no longer be erased right.
      const columns = process.stdout.columns || 120;
      for (const [i, line] of lines.entries()) lines[i] = fitWidth(line, columns - 1);
      clear();
      process.stdout.write(`${lines.join('\n')}\n`);
      drawn = lines.length;
    } else {
      for (const line of lines) console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);
    }
  };
  const timer = setInterval(show, tty ? TTY_REFRESH_MS : LOG_EVERY_MS);

  let interrupts = 0;
  process.on('SIGINT', () => {
    interrupts += 1;
    if (interrupts === 1) {
      bridge.stop();
      clear();
      console.log('Stopping: reporting what the phones have said (Ctrl-C again to quit at once; the journal settles the rest next time)…');
    } else bridge.kill();
  });
  process.on('SIGTERM', () => bridge.stop());

  const stats = await bridge.done;
  clearInterval(timer);
  show();
  console.log(formatSummary(stats, (Date.now() - started) / 1000));
  return stats.every((s) => s.phase === 'refused') ? 1 : 0;
}

/** The line cut to `columns` terminal cells (CJK and full-width characters take two). */
function fitWidth(line: string, columns: number): string {
  let width = 0;
  let out = '';
  for (const ch of line) {
    width += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 2 : 1;
    if (width > columns) return `${out}…`;
    out += ch;
  }
  return out;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n(npm run phone -- --help lists the options)`);
    process.exitCode = 2;
  } else {
    console.error(`npm run phone: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
