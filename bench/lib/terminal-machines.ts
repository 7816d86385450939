import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { messages, OrderStatus, PayType } from '@huiyun/contract';
import { signTerminal } from '../../server/src/modules/pay/terminal/index.ts';

// The vending machines and their customers of the terminal bench, over real HTTP: each purchase is the
// whole protocol (create, the customer's 支付模拟 page, status long polls until 已支付, dispense), signed
// as docs/terminal-protocol.md says. One fleet runs in the bench's process, or a slice of it in each of
// BENCH_LOAD_PROCESSES load processes (bench/lib/terminal-load-child.ts), so the load generator is not
// what caps a larger machine. What each purchase took is recorded with the wall-clock time it ended, so
// the bench counts a window's purchases whichever process made them.

export type Machine = { machineNo: string; machineId: number; key: string };
export type Created = { orderNo: string; codeUrl: string };
export type StepName = 'create' | 'pay' | 'untilPaid' | 'dispense';
/** One purchase: when it ended (Date.now()), how long it and each step took (ms), its status calls. */
export type PurchaseRecord = { end: number; latency: number; steps: Record<StepName, number>; statusCalls: number };
export type FleetResult = { purchases: PurchaseRecord[]; errors: { end: number; message: string }[]; seenOrders: string[] };
export type FleetOptions = { url: string; aisles: string[]; rate: number; warmupSeconds: number };

export function machineFleet(options: FleetOptions) {
  const origin = new URL(options.url);
  // Every machine keeps one connection open, as a device would, and so does its customer's phone.
  // (Node's default agent keeps only 256 idle sockets: the rest reconnected, and a request on a new
  // connection to a busy server waited up to 10–14 s to be read — see docs/performance.md.)
  const agents = new Map<string, http.Agent>();
  const agentFor = (name: string) => {
    let agent = agents.get(name);
    if (!agent) agents.set(name, (agent = new http.Agent({ keepAlive: true, maxSockets: 1 })));
    return agent;
  };
  const result: FleetResult = { purchases: [], errors: [], seenOrders: [] };

  function post(path: string, body: string, headers: Record<string, string>, agent: http.Agent): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const request = http.request({ host: origin.hostname, port: origin.port, path, method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(body);
    });
  }

  async function signed<T>(m: Machine, path: string, payload: unknown): Promise<T> {
    const full = `/terminal/v1${path}`;
    const raw = JSON.stringify(payload);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(12).toString('hex');
    const answer = await post(full, raw, {
      'content-type': 'application/json', 'x-machine-no': m.machineNo, 'x-timestamp': timestamp, 'x-nonce': nonce,
      'x-signature': signTerminal(m.key, 'POST', full, timestamp, nonce, raw),
    }, agentFor(m.machineNo));
    const body = JSON.parse(answer.text) as { success: boolean; msg: string; data?: T };
    if (!body.success || !body.data) throw new Error(`${path} ${answer.status}: ${body.msg}`);
    return body.data;
  }

  async function create(m: Machine): Promise<Created> {
    const aisleNo = options.aisles[Math.floor(Math.random() * options.aisles.length)]!;
    const created = await signed<Created>(m, '/order/create', { aisleNo, payType: PayType.wechat });
    result.seenOrders.push(created.orderNo);
    return created;
  }

  async function pay(m: Machine, created: Created): Promise<void> {
    const page = new URL(created.codeUrl);
    const paid = await post(page.pathname, new URLSearchParams({ t: page.searchParams.get('t') ?? '', action: 'pay' }).toString(), { 'content-type': 'application/x-www-form-urlencoded' }, agentFor(`customer of ${m.machineNo}`));
    if (!paid.text.includes(messages.terminal.simPaid)) throw new Error(`支付模拟 did not pay ${created.orderNo}: ${paid.status}`);
  }

  /** order/status long polls until 已支付; answers how many calls it took. */
  async function untilPaid(m: Machine, orderNo: string): Promise<number> {
    let status: number = OrderStatus.processing;
    let calls = 0;
    for (; calls < 5 && status !== OrderStatus.paid; calls++) {
      status = (await signed<{ orderStatus: number }>(m, '/order/status', { orderNo, knownStatus: status, waitSeconds: 10 })).orderStatus;
    }
    if (status !== OrderStatus.paid) throw new Error(`${orderNo} not paid: status ${status}`);
    return calls;
  }

  const dispense = (m: Machine, orderNo: string) => signed(m, '/order/dispense', { orderNo, success: true, aisleStatus: 1, message: '' });

  async function purchase(m: Machine): Promise<PurchaseRecord> {
    const started = performance.now();
    let t = started;
    const steps = { create: 0, pay: 0, untilPaid: 0, dispense: 0 };
    const lap = (step: StepName) => {
      const now = performance.now();
      steps[step] = now - t;
      t = now;
    };
    const created = await create(m);
    lap('create');
    await pay(m, created);
    lap('pay');
    const statusCalls = await untilPaid(m, created.orderNo);
    lap('untilPaid');
    await dispense(m, created.orderNo);
    lap('dispense');
    return { end: Date.now(), latency: performance.now() - started, steps, statusCalls };
  }

  let nextStart = 0;
  function paced(): Promise<void> | undefined {
    if (!options.rate) return undefined;
    const now = performance.now();
    const at = Math.max(now, nextStart);
    nextStart = at + 1000 / options.rate;
    return at > now ? new Promise((resolve) => setTimeout(resolve, at - now)) : undefined;
  }

  return {
    signed, post, agentFor, create, pay, untilPaid, dispense, result,

    /** Every machine and its customer connect, 50 at a time: the machine's heartbeat, the customer's empty 支付模拟 page. */
    async connect(fleet: Machine[]): Promise<void> {
      for (let i = 0; i < fleet.length; i += 50) {
        await Promise.all(fleet.slice(i, i + 50).flatMap((m) => [
          signed(m, '/heartbeat', { aisles: [] }),
          post('/gateway/simulator/pay/NONE', 't=none&action=cancel', { 'content-type': 'application/x-www-form-urlencoded' }, agentFor(`customer of ${m.machineNo}`)),
        ]));
      }
    },

    /** Each machine buys again and again until `endAt` (Date.now()); one under way then is finished. */
    async run(fleet: Machine[], endAt: number): Promise<FleetResult> {
      await Promise.all(fleet.map(async (m) => {
        // machines come online over the first half of the warm-up, so their purchases do not move in
        // lockstep (a window would then count whole waves of 1,000)
        await new Promise((resolve) => setTimeout(resolve, Math.random() * options.warmupSeconds * 500));
        do {
          await paced();
          try {
            result.purchases.push(await purchase(m));
          } catch (error) {
            result.errors.push({ end: Date.now(), message: error instanceof Error ? error.message : String(error) });
          }
        } while (Date.now() < endAt);
      }));
      return result;
    },

    close(): void {
      for (const agent of agents.values()) agent.destroy();
    },
  };
}

export type MachineFleet = ReturnType<typeof machineFleet>;
