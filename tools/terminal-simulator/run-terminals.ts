import type { SimMachine } from './setup.ts';
import { payOnPage, PROTOCOL_BACKOFF, TerminalClient, type Retry } from './terminal-client.ts';

// N machines selling end to end against a running server (docs/terminal-protocol.md): heartbeat,
// create an order, the customer pays on the page its code URL opens — 支付模拟, or a fake gateway's
// (tools/fake-gateways), whichever gateway the machine's 终端支付配置 binds — or walks away, long-poll until paid,
// dispense (or fail to), report. Purchases are spread so that the whole fleet makes `rate` per second. A
// call the server cannot answer now (no answer, a 5xx: 503 while its database is away or too busy) is sent
// again after the protocol's backoff (TerminalClient.callUntilAnswered).

export type TerminalStats = {
  machines: number; online: number; created: number; refused: number; abandoned: number; paid: number; dispensed: number; failed: number;
  /** Failed dispenses whose automatic refund the machine saw confirmed (order/status refundedAmount). */
  refunded: number; errors: number;
  lastError: string;
};

export type RunOptions = {
  server: string;
  machines: SimMachine[];
  /** Purchases per second over the whole fleet (Infinity: as fast as the server answers). */
  rate: number;
  dispenseFail: number;
  abandon: number;
  /** Stop after this long, or after `purchases` per machine, whichever first. */
  durationMs?: number;
  purchases?: number;
  random?: () => number;
  stopped?: () => boolean;
  /** How a call the server could not answer is sent again (default: the protocol's backoff, 30 tries). */
  retry?: Retry;
};

const AISLES = ['A1', 'A2', 'A3', 'A4', 'B1', 'B2', 'B3', 'B4'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function emptyStats(machines: number): TerminalStats {
  return { machines, online: 0, created: 0, refused: 0, abandoned: 0, paid: 0, dispensed: 0, failed: 0, refunded: 0, errors: 0, lastError: '' };
}

export async function runTerminals(options: RunOptions, stats = emptyStats(options.machines.length)): Promise<TerminalStats> {
  const random = options.random ?? Math.random;
  const until = options.durationMs ? Date.now() + options.durationMs : Infinity;
  const gapMs = Number.isFinite(options.rate) && options.rate > 0 ? (options.machines.length / options.rate) * 1000 : 0;
  const done = () => Date.now() >= until || options.stopped?.() === true;
  const retry = options.retry ?? { tries: 30, ...PROTOCOL_BACKOFF };

  async function machineLoop(machine: SimMachine) {
    const client = new TerminalClient(options.server, machine.machineNo, machine.key);
    const beat = await client.callUntilAnswered('/heartbeat', { aisles: [] }, retry);
    if (!beat.body.success) {
      stats.errors++;
      stats.lastError = `${machine.machineNo}: ${beat.body.msg}`;
      return;
    }
    stats.online++;
    try {
      for (let n = 0; (options.purchases === undefined || n < options.purchases) && !done(); n++) {
        const started = Date.now();
        try {
          await purchase(client, machine.payType);
        } catch (error) {
          stats.errors++;
          stats.lastError = `${machine.machineNo}: ${error instanceof Error ? error.message : String(error)}`;
        }
        const wait = gapMs - (Date.now() - started);
        if (wait > 0) await sleep(wait * (0.5 + random()));
      }
    } finally {
      stats.online--;
    }
  }

  async function purchase(client: TerminalClient, payType: number) {
    const created = await client.callUntilAnswered<{ orderNo: string; codeUrl: string }>('/order/create', { aisleNo: AISLES[Math.floor(random() * AISLES.length)], payType }, retry);
    if (!created.body.success || !created.body.data) {
      stats.refused++;
      stats.lastError = `${client.machineNo}: ${created.body.msg}`;
      return;
    }
    stats.created++;
    const { orderNo, codeUrl } = created.body.data;
    if (random() < options.abandon) {
      stats.abandoned++; // the next create on this machine settles it (closes it at the gateway)
      return;
    }
    if (!(await payOnPage(codeUrl))) throw new Error(`the customer's page refused to pay ${orderNo} (${codeUrl})`);
    let status = 10;
    for (let i = 0; i < 10 && status !== 2; i++) {
      const polled = await client.callUntilAnswered<{ orderStatus: number }>('/order/status', { orderNo, knownStatus: status, waitSeconds: 10 }, retry);
      status = polled.body.data?.orderStatus ?? status;
      if (status === 5) throw new Error(`${orderNo} closed before it was paid`);
    }
    if (status !== 2) throw new Error(`${orderNo} not paid after polling`);
    stats.paid++;
    const success = random() >= options.dispenseFail;
    const reported = await client.callUntilAnswered('/order/dispense', { orderNo, success, aisleStatus: 1, message: success ? '' : '模拟出货失败' }, retry);
    if (!reported.body.success) throw new Error(`dispense ${orderNo}: ${reported.body.msg}`);
    if (success) {
      stats.dispensed++;
      return;
    }
    stats.failed++;
    // as a machine would, to tell the customer: the automatic refund confirmed (a few tries, a second apart)
    for (let i = 0; i < 5; i++) {
      const polled = await client.callUntilAnswered<{ amount: string; refundedAmount: string }>('/order/status', { orderNo }, retry);
      if (polled.body.data && polled.body.data.refundedAmount === polled.body.data.amount) {
        stats.refunded++;
        return;
      }
      await sleep(1_000);
    }
  }

  await Promise.all(options.machines.map(machineLoop));
  return stats;
}
