import { setMaxListeners } from 'node:events';
import { PhoneDevice, type Timing } from './device-loop.ts';
import type { PhoneSeat } from './phones-file.ts';
import type { PhoneStats } from './status.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

// The bridge of one process: one PhoneDevice per phone SIM, and, with webhooks, the one listener they
// share. Used by `npm run phone`, the tests and the bench.

export type BridgeOptions = {
  server: string;
  phones: PhoneSeat[];
  stateDir: string;
  /** Where the phones post webhooks, and where this process listens for them (port 0: any). */
  webhook?: { url: string; host: string; port: number };
  timing?: Partial<Timing>;
  log?: (line: string) => void;
};

export type Bridge = {
  stats: PhoneStats[];
  receiver: WebhookReceiver | undefined;
  /** The listener's URL as the phones are told (with port 0: the port it got). */
  webhookUrl: string | undefined;
  /** Stops cleanly: no new batch or POST, what is known reported. */
  stop: () => void;
  /** Ends in-flight calls too (a second Ctrl-C). */
  kill: () => void;
  done: Promise<PhoneStats[]>;
};

export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  const stopping = new AbortController();
  const killing = new AbortController();
  setMaxListeners(0, stopping.signal, killing.signal);
  const log = options.log ?? ((line: string) => console.log(line));
  let receiver: WebhookReceiver | undefined;
  let webhookUrl: string | undefined;
  if (options.webhook) {
    receiver = new WebhookReceiver();
    const address = await receiver.listen(options.webhook.host, options.webhook.port);
    const url = new URL(options.webhook.url);
    if (options.webhook.port === 0) url.port = String(address.port);
    webhookUrl = url.toString().replace(/\/+$/, '');
  }
  const devices = options.phones.map((seat) => new PhoneDevice({
    seat, server: options.server, stateDir: options.stateDir, timing: options.timing, log,
    webhook: receiver && webhookUrl ? { url: webhookUrl, receiver } : undefined,
    stop: stopping.signal, kill: killing.signal,
  }));
  const done = (async () => {
    await Promise.all(devices.map((d) => d.run()));
    await receiver?.close();
    return devices.map((d) => d.stats);
  })();
  return {
    stats: devices.map((d) => d.stats),
    receiver,
    webhookUrl,
    stop: () => stopping.abort(),
    kill: () => {
      stopping.abort();
      killing.abort();
    },
    done,
  };
}
