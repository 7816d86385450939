// `npm run device -- --server URL --code CODE [--count N] [--fail-rate R] [--speed X] …`: N simulated
// sending devices against a running server, with a live progress line and a summary at the end.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deviceCount, parseCliArgs, readCodeFile, UsageError, USAGE } from './args.ts';
import { makeAuthCodes } from './make-codes.ts';
import { formatProgress, formatSummary, RateMeter } from './progress.ts';
import { defaultMachinePrefix, startDevices } from './run-devices.ts';

const TTY_REFRESH_MS = 500;
const LOG_EVERY_MS = 5000;

async function main(argv: string[]): Promise<number> {
  const cli = parseCliArgs(argv);
  if (cli.help) {
    console.log(USAGE);
    return 0;
  }
  const prefix = cli.machinePrefix ?? defaultMachinePrefix();
  let codes: string[];
  if (cli.codes.kind === 'list') codes = cli.codes.codes;
  else if (cli.codes.kind === 'file') codes = readCodeFile(cli.codes.path);
  else {
    const { admin, password, owner, quota, days } = cli.codes;
    codes = await makeAuthCodes({ server: cli.server, admin, password, owner, quota, days, count: cli.count ?? 1 });
    const saved = path.join(os.tmpdir(), `huiyun-device-codes-${Date.now()}.txt`);
    fs.writeFileSync(saved, `${codes.join('\n')}\n`);
    console.log(`Made ${codes.length} authorization codes for ${owner} (quota ${quota}, ${days} days), saved in ${saved}`);
    console.log(`  (run again with --code @${saved} to reuse them). Assign the devices to a task in 任务列表 → 设备 once they are activated.`);
  }
  const count = deviceCount(cli.count, codes.length);

  const fleet = startDevices({
    server: cli.server, codes, count, machinePrefix: prefix, speed: cli.speed, failRate: cli.failRate, undeliveredRate: cli.undeliveredRate, duplicateRate: cli.duplicateRate,
    lateRate: cli.lateRate, reportEvery: cli.reportEvery, untilIdle: cli.untilIdle, idleMs: cli.idleMs, durationMs: cli.durationMs,
  });
  const speed = Number.isFinite(cli.speed) ? `×${cli.speed}` : 'max (no waiting)';
  console.log(`${count} devices ${prefix}-1 … ${prefix}-${count} → ${cli.server}; speed ${speed}, fail rate ${cli.failRate}, undelivered rate ${cli.undeliveredRate}, `
    + `duplicate reports ${cli.duplicateRate}, late reports ${cli.lateRate}${cli.untilIdle ? ', until idle' : ''}${cli.durationMs ? `, for ${cli.durationMs / 1000} s` : ''}`);

  const tty = process.stdout.isTTY === true;
  const meter = new RateMeter(fleet.stats);
  const show = () => {
    const line = formatProgress(fleet.stats, meter.sample(fleet.stats));
    if (tty) process.stdout.write(`\r${line}\x1b[K`);
    else console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);
  };
  const progress = setInterval(show, tty ? TTY_REFRESH_MS : LOG_EVERY_MS);

  let interrupts = 0;
  process.on('SIGINT', () => {
    interrupts += 1;
    if (interrupts === 1) {
      fleet.stop();
      process.stdout.write(`${tty ? '\n' : ''}Stopping: devices report what they have sent (Ctrl-C again to quit at once)…\n`);
    } else fleet.kill();
  });
  process.on('SIGTERM', () => fleet.stop());

  const stats = await fleet.done;
  clearInterval(progress);
  show();
  if (tty) process.stdout.write('\n');
  console.log(formatSummary(stats));
  return stats.refused === count ? 1 : 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n(npm run device -- --help lists the options)`);
    process.exitCode = 2;
  } else {
    console.error(`npm run device: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
