import { httpUrl, parseOptions, serverUrl, UsageError } from '../lib/cli-args.ts';
import { checkSeat, PhonesFileError, readPhonesFile, type PhoneSeat } from './phones-file.ts';

// The command line of `npm run phone`, read into plain options.

export const USAGE = `usage: npm run phone -- --server URL --code CODE --phone URL --password PASSWORD [options]
       npm run phone -- --server URL --phones FILE [options]

  --server URL           the console's server (e.g. http://127.0.0.1:8080)
  --code CODE            the authorization code this phone SIM activates with (one code = one device)
  --phone URL            the phone's SMSGate Local Server (e.g. http://192.168.1.20:8080)
  --user USER            its user (default sms)
  --password PASSWORD    its password (shown in SMSGate's Local Server screen)
  --sim N                which SIM sends, 1–3 (default 1)
  --name NAME            the device's name in 设备列表 (default: the phone's name and SIM)
  --phones FILE          many phone SIMs from one process, one a line:
                           CODE ADDRESS USER PASSWORD [SIM] [NAME]   (# comments)
  --state-dir DIR        where each device's crash journal lives (default ./data/phone-bridge)
  --webhook-url URL      follow messages by webhooks posted to URL (HTTPS through a proxy, or
                         http://127.0.0.1:PORT when the bridge runs where the phone can post to it);
                         default: polling GET /messages/{id}, which works on any LAN
  --webhook-listen H:P   where the bridge listens for them (default 127.0.0.1 and the port of --webhook-url)
  --signing-key KEY      the phone's webhook signing key (default: the bridge sets a random one)

Ctrl-C stops cleanly (what was sent is reported) and prints a summary; a second Ctrl-C quits at once.`;

export { UsageError };

export type CliOptions = {
  server: string;
  phones: PhoneSeat[];
  stateDir: string;
  webhookUrl: string | undefined;
  webhookListen: { host: string; port: number } | undefined;
  help: boolean;
};

export function parseCliArgs(argv: string[], readFile: (path: string) => PhoneSeat[] = readPhonesFile): CliOptions {
  const values = parseOptions(argv, {
    server: { type: 'string' },
    code: { type: 'string' },
    phone: { type: 'string' },
    user: { type: 'string' },
    password: { type: 'string' },
    sim: { type: 'string' },
    name: { type: 'string' },
    phones: { type: 'string' },
    'state-dir': { type: 'string' },
    'webhook-url': { type: 'string' },
    'webhook-listen': { type: 'string' },
    'signing-key': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return { server: '', phones: [], stateDir: '', webhookUrl: undefined, webhookListen: undefined, help: true };

  const server = serverUrl(values.server);

  let phones: PhoneSeat[];
  try {
    if (values.phones !== undefined) {
      const single = (['code', 'phone', 'user', 'password', 'sim', 'name', 'signing-key'] as const).filter((k) => values[k] !== undefined);
      if (single.length) throw new UsageError(`--phones FILE describes every phone: leave out --${single.join(', --')}`);
      phones = readFile(values.phones);
    } else {
      if (!values.code) throw new UsageError('give --code CODE --phone URL --password PASSWORD, or --phones FILE');
      if (!values.phone) throw new UsageError('--phone URL is required (the phone\'s SMSGate Local Server, e.g. http://192.168.1.20:8080)');
      if (!values.password) throw new UsageError('--password is required (SMSGate shows it on its Local Server screen)');
      phones = [checkSeat({
        code: values.code.trim(), url: values.phone, user: values.user ?? 'sms', password: values.password,
        sim: values.sim === undefined ? 1 : Number(values.sim), name: values.name, signingKey: values['signing-key'],
      }, 'command line')];
    }
  } catch (error) {
    if (error instanceof PhonesFileError) throw new UsageError(error.message);
    throw error;
  }

  let webhookUrl: string | undefined;
  let webhookListen: CliOptions['webhookListen'];
  if (values['webhook-url'] !== undefined) {
    const url = new URL(httpUrl('--webhook-url', values['webhook-url']));
    if (url.protocol === 'http:' && url.hostname !== '127.0.0.1') {
      console.warn('--webhook-url: SMSGate posts webhooks only to https:// or http://127.0.0.1 (its regular build); polling will settle the messages');
    }
    webhookUrl = url.toString().replace(/\/+$/, '');
    webhookListen = values['webhook-listen'] !== undefined
      ? hostPort(values['webhook-listen'])
      : { host: '127.0.0.1', port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
  } else if (values['webhook-listen'] !== undefined) {
    throw new UsageError('--webhook-listen goes with --webhook-url (the address the phone posts to)');
  }

  return { server, phones, stateDir: values['state-dir'] ?? './data/phone-bridge', webhookUrl, webhookListen, help: false };
}

function hostPort(text: string): { host: string; port: number } {
  const match = /^(.+):(\d{1,5})$/.exec(text);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65_535) throw new UsageError(`--webhook-listen takes HOST:PORT (got ${text})`);
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}
