// The fake phones' command line, parsed apart from running them (tested alone).

export const USAGE = `npm run fake-phone -- [--phones 3] [--fail 0.02] [--undelivered 0.05] [--reply-rate 0.01] [--port-base 18600]
  [--speed 1] [--duplicates 0.01] [--out-of-order 0.01] [--sims 1] [--password PASSWORD] [--json]
  --speed 0: every step at once (as in the tests); 1: a real phone's pacing (default); 10: ten times faster
  --json: print the phones as one JSON line and nothing else (for a process that starts the fakes; their books
          are then at GET /__fake/books of each phone)`;

export type FakePhoneArgs = {
  help: boolean; phones: number; failRate: number; undeliveredRate: number; replyRate: number; portBase: number;
  speed: number; duplicateRate: number; reorderRate: number; sims: number; password?: string; json: boolean;
};

export function parseFakePhoneArgs(argv: string[]): FakePhoneArgs {
  const known = new Set(['phones', 'fail', 'undelivered', 'reply-rate', 'port-base', 'speed', 'duplicates', 'out-of-order', 'sims', 'password']);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h' || arg === '--json') continue;
    if (!arg.startsWith('--') || !known.has(arg.slice(2))) throw new Error(`unknown argument ${arg}\n${USAGE}`);
    if (argv[i + 1] === undefined) throw new Error(`${arg} needs a value\n${USAGE}`);
    i++;
  }
  const value = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i < 0 ? undefined : argv[i + 1];
  };
  const num = (name: string, fallback: number, min: number, max: number, whole: boolean) => {
    const text = value(name);
    if (text === undefined) return fallback;
    const n = Number(text);
    if (text.trim() === '' || !Number.isFinite(n) || n < min || n > max || (whole && !Number.isInteger(n))) {
      throw new Error(`--${name} must be ${whole ? 'a whole number' : 'a number'} from ${min} to ${max}\n${USAGE}`);
    }
    return n;
  };
  const rate = (name: string, fallback: number) => num(name, fallback, 0, 1, false);
  const password = value('password');
  return {
    help: argv.includes('--help') || argv.includes('-h'), json: argv.includes('--json'),
    phones: num('phones', 3, 1, 500, true),
    failRate: rate('fail', 0.02), undeliveredRate: rate('undelivered', 0.05), replyRate: rate('reply-rate', 0.01),
    portBase: num('port-base', 0, 0, 65_000, true), speed: num('speed', 1, 0, 1000, false),
    duplicateRate: rate('duplicates', 0.01), reorderRate: rate('out-of-order', 0.01), sims: num('sims', 1, 1, 2, true),
    ...(password !== undefined ? { password } : {}),
  };
}
