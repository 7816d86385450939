import fs from 'node:fs';
import { parseOptions, serverUrl, UsageError } from '../lib/cli-args.ts';
import { DEFAULT_BEHAVIOUR } from './run-devices.ts';

// The command line of `npm run device`, read into plain options (no I/O but reading an @file).

export const USAGE = `usage: npm run device -- --server URL (--code CODE[,CODE…] | --code @FILE | --admin USER:PASSWORD --owner USERNAME) [options]

  --count N              devices to simulate (default: one per code; 1 with --admin)
  --fail-rate R          each number fails with probability R, 0–1 (default 0)
  --undelivered-rate R   each number sent gets an undelivered receipt with probability R, a delivered
                         one otherwise (default ${DEFAULT_BEHAVIOUR.undeliveredRate})
  --speed X              intervals divided by X (default 1); 0 or max: no waiting between messages
  --duplicate-rate R     each report is sent twice with probability R (default ${DEFAULT_BEHAVIOUR.duplicateRate})
  --late-rate R          a batch's last report is held past its lease with probability R (default ${DEFAULT_BEHAVIOUR.lateRate})
  --report-every N       results per report while a batch is sent (default ${DEFAULT_BEHAVIOUR.reportEvery}; 0: once, at its end)
  --until-idle           stop when every device has had nothing to do (task completed, no task, paused,
                         daily cap, quota used up, code expired, type it cannot send, outside
                         the sending window) for --idle seconds (default 5)
  --duration S           stop after S seconds
  --prefix P             machine codes P-1 … P-N (default sim-<hostname>), the same on every run
  --admin USER:PASSWORD  with --owner USERNAME: first make the N codes through the console API
  --quota N, --days D    quota and validity of the codes made with --admin (default 100000, 30)

One code activates one device. Ctrl-C stops cleanly (devices report what they sent) and prints a
summary; a second Ctrl-C quits at once.`;

export { UsageError };

export type CodeSource =
  | { kind: 'list'; codes: string[] }
  | { kind: 'file'; path: string }
  | { kind: 'admin'; admin: string; password: string; owner: string; quota: number; days: number };

export type CliOptions = {
  server: string;
  codes: CodeSource;
  count: number | undefined;
  failRate: number;
  undeliveredRate: number;
  duplicateRate: number;
  lateRate: number;
  reportEvery: number;
  /** Infinity: no waiting. */
  speed: number;
  untilIdle: boolean;
  idleMs: number;
  durationMs: number | undefined;
  machinePrefix: string | undefined;
  help: boolean;
};

export function parseCliArgs(argv: string[]): CliOptions {
  const values = parseOptions(argv, {
    server: { type: 'string' },
    code: { type: 'string' },
    count: { type: 'string' },
    'fail-rate': { type: 'string' },
    'undelivered-rate': { type: 'string' },
    'duplicate-rate': { type: 'string' },
    'late-rate': { type: 'string' },
    'report-every': { type: 'string' },
    speed: { type: 'string' },
    'until-idle': { type: 'boolean' },
    idle: { type: 'string' },
    duration: { type: 'string' },
    prefix: { type: 'string' },
    admin: { type: 'string' },
    owner: { type: 'string' },
    quota: { type: 'string' },
    days: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  const help = values.help === true;
  if (help) return { ...defaults(), help };

  const server = serverUrl(values.server);

  const count = values.count === undefined ? undefined : wholeNumber('--count', values.count, 1);
  let codes: CodeSource;
  if (values.admin !== undefined) {
    if (values.code !== undefined) throw new UsageError('give either --code or --admin, not both');
    const colon = values.admin.indexOf(':');
    if (colon <= 0) throw new UsageError('--admin takes USER:PASSWORD');
    if (!values.owner) throw new UsageError('--admin needs --owner USERNAME (the account the codes are made for)');
    codes = {
      kind: 'admin', admin: values.admin.slice(0, colon), password: values.admin.slice(colon + 1), owner: values.owner,
      quota: values.quota === undefined ? 100_000 : wholeNumber('--quota', values.quota, 0),
      days: values.days === undefined ? 30 : wholeNumber('--days', values.days, 1),
    };
  } else if (values.code !== undefined) {
    if (values.owner !== undefined) throw new UsageError('--owner goes with --admin');
    codes = values.code.startsWith('@') ? { kind: 'file', path: values.code.slice(1) } : { kind: 'list', codes: splitCodes(values.code) };
    if (codes.kind === 'list' && codes.codes.length === 0) throw new UsageError('--code is empty');
  } else {
    throw new UsageError('give the authorization codes: --code CODE[,CODE…], --code @FILE (one a line), or --admin USER:PASSWORD --owner USERNAME');
  }

  return {
    ...defaults(),
    server,
    codes,
    count,
    failRate: values['fail-rate'] === undefined ? 0 : probability('--fail-rate', values['fail-rate']),
    undeliveredRate: values['undelivered-rate'] === undefined ? DEFAULT_BEHAVIOUR.undeliveredRate : probability('--undelivered-rate', values['undelivered-rate']),
    duplicateRate: values['duplicate-rate'] === undefined ? DEFAULT_BEHAVIOUR.duplicateRate : probability('--duplicate-rate', values['duplicate-rate']),
    lateRate: values['late-rate'] === undefined ? DEFAULT_BEHAVIOUR.lateRate : probability('--late-rate', values['late-rate']),
    reportEvery: values['report-every'] === undefined ? DEFAULT_BEHAVIOUR.reportEvery : wholeNumber('--report-every', values['report-every'], 0),
    speed: values.speed === undefined ? 1 : speed(values.speed),
    untilIdle: values['until-idle'] === true,
    idleMs: values.idle === undefined ? 5000 : positive('--idle', values.idle) * 1000,
    durationMs: values.duration === undefined ? undefined : positive('--duration', values.duration) * 1000,
    machinePrefix: values.prefix === undefined ? undefined : machinePrefix(values.prefix),
  };
}

const defaults = (): CliOptions => ({
  server: '', codes: { kind: 'list', codes: [] }, count: undefined, failRate: 0, undeliveredRate: DEFAULT_BEHAVIOUR.undeliveredRate, duplicateRate: DEFAULT_BEHAVIOUR.duplicateRate,
  lateRate: DEFAULT_BEHAVIOUR.lateRate, reportEvery: DEFAULT_BEHAVIOUR.reportEvery, speed: 1, untilIdle: false, idleMs: 5000,
  durationMs: undefined, machinePrefix: undefined, help: false,
});

/** Codes of a comma (or whitespace) separated list. */
export function splitCodes(text: string): string[] {
  return text.split(/[\s,]+/).filter((c) => c.length > 0);
}

/** The codes of a file, one a line; blank lines and # comments skipped. */
export function readCodeFile(path: string, read: (path: string) => string = (p) => fs.readFileSync(p, 'utf8')): string[] {
  let text: string;
  try {
    text = read(path);
  } catch (error) {
    throw new UsageError(`--code @${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  return text.split(/\r?\n/).flatMap((line) => splitCodes(line.replace(/#.*/, '')));
}

/** The devices to run for the codes at hand: refuses fewer codes than devices. */
export function deviceCount(requested: number | undefined, codes: number): number {
  const count = requested ?? codes;
  if (codes < count) {
    throw new UsageError(`--count ${count} needs ${count} authorization codes, but ${codes} ${codes === 1 ? 'was' : 'were'} given: one code activates one device`);
  }
  return count;
}

function speed(text: string): number {
  if (text === 'max' || text === '0') return Infinity;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) throw new UsageError(`--speed takes a positive number, 0 or max (got ${text})`);
  return value === 0 ? Infinity : value;
}

function wholeNumber(name: string, text: string, min: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new UsageError(`${name} takes a whole number ≥ ${min} (got ${text})`);
  return value;
}

function positive(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`${name} takes a number of seconds > 0 (got ${text})`);
  return value;
}

function probability(name: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) throw new UsageError(`${name} takes a probability from 0 to 1 (got ${text})`);
  return value;
}

function machinePrefix(text: string): string {
  if (!/^[A-Za-z0-9._:-]{1,54}$/.test(text)) throw new UsageError('--prefix: 1–54 characters of A-Z a-z 0-9 . _ : -');
  return text;
}
