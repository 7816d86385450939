// `npm run fake-phone -- --phones 3 [--fail 0.02] [--undelivered 0.05] [--reply-rate 0.01] [--port-base N] [--speed 1]`:
// fake SMSGate phones on 127.0.0.1 (args.ts for every option). Prints each phone's address and credentials, the
// bridge command to connect it, then a live line of what the phones did; Ctrl+C stops them and prints the books.
import { parseFakePhoneArgs, USAGE } from './args.ts';
import { startFakePhones } from './index.ts';
import { formatBooks } from './report.ts';

async function main(argv: string[]): Promise<number> {
  const cli = parseFakePhoneArgs(argv);
  if (cli.help) {
    console.log(USAGE);
    return 0;
  }
  const fleet = await startFakePhones({
    phones: cli.phones, portBase: cli.portBase, speed: cli.speed, sims: cli.sims,
    failRate: cli.failRate, undeliveredRate: cli.undeliveredRate, replyRate: cli.replyRate,
    duplicateRate: cli.duplicateRate, reorderRate: cli.reorderRate, ...(cli.password ? { password: cli.password } : {}),
  });
  if (cli.json) {
    const phones = fleet.phones.map((p) => ({ name: p.name, url: p.url, user: p.user, password: p.password, signingKey: p.signingKey, deviceId: p.deviceId }));
    console.log(JSON.stringify({ phones }));
    await stopped();
    await fleet.stop();
    return 0;
  }
  for (const [i, p] of fleet.phones.entries()) {
    console.log(`\n== ${p.name} ==\nURL: ${p.url}\nuser: ${p.user}\npassword: ${p.password}\nsigning key: ${p.signingKey}\ndevice id: ${p.deviceId}`);
    console.log(`bridge: npm run phone -- --server http://127.0.0.1:3000 --code AUTHCODE${i + 1} --phone ${p.url} --user ${p.user} --password ${p.password}`);
  }
  console.log(`\n${cli.phones} fake phone(s) running (speed ${cli.speed}); Ctrl+C stops.`);
  let last = '';
  const live = setInterval(() => {
    const line = formatBooks(fleet.summary());
    if (line !== last) console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
    last = line;
  }, 2000);
  await stopped();
  clearInterval(live);
  await fleet.stop();
  console.log(`\nStopped. Books: ${formatBooks(fleet.summary())}`);
  return 0;
}

const stopped = () => new Promise<void>((resolve) => {
  process.once('SIGINT', () => resolve());
  process.once('SIGTERM', () => resolve());
});

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
