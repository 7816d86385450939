import type { Envelope } from './terminal-client.ts';

// Makes (or reuses) N machines through the console API, as an operator would: a 支付配置 on the
// simulator gateway, the machines (a reused one gets a new terminal key: keys are shown only once),
// a 2 × 4 aisle grid filled to capacity with a goods name an aisle, and the 终端支付配置 for 微信支付. With `config` (the name of a
// 支付配置, e.g. one `npm run fake-gateways -- --seed` wrote), the machines are bound to that one instead,
// for its pay type, and sell through its gateway.

/** What the simulated machines sell, an aisle each in grid order (数据可视化's goods top-10 shows them). */
const GOODS = ['矿泉水', '可乐', '橙汁', '绿茶', '咖啡', '苏打水', '酸奶', '运动饮料'];

/** Gives each aisle without goods one, as an operator would in 货道管理 (its price, stock and status kept). */
async function nameGoods(server: string, token: string, machineId: number): Promise<void> {
  const { aisles } = must('货道', await api<{ aisles: { aisleId: number; layer: number; aisleColumn: number; goodsNo: string; goodsName: string; price: string; capacity: number; stock: number; status: number }[] }>(server, token, '/api/Aisle/grid', { machineId }));
  for (const [i, aisle] of aisles.entries()) {
    if (aisle.goodsName) continue;
    const { aisleId, layer, aisleColumn, goodsNo, price, capacity, stock, status } = aisle;
    must('货道保存', await api(server, token, '/api/Aisle/save', { aisleId, machineId, layer, aisleColumn, goodsNo, goodsName: GOODS[i % GOODS.length], price, capacity, stock, status }));
  }
}

/** payType: what the machine asks order/create for (the pay type its 终端支付配置 binds). */
export type SimMachine = { machineNo: string; key: string; payType: number };

/** A console API call (the envelope as answered). */
export async function api<T>(server: string, token: string | undefined, path: string, body: unknown): Promise<Envelope<T>> {
  const answer = await fetch(`${server}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { token } : {}) }, body: JSON.stringify(body) });
  return (await answer.json()) as Envelope<T>;
}

/** The data of a successful envelope; a refusal throws with its message. */
export const must = <T>(what: string, e: Envelope<T>): T => {
  if (!e.success) throw new Error(`${what}: ${e.msg}`);
  return e.data as T;
};

export async function prepareMachines(options: { server: string; admin: string; password: string; count: number; prefix: string; config?: string }): Promise<SimMachine[]> {
  const server = options.server.replace(/\/$/, '');
  const token = must('login', await api<{ token: string }>(server, undefined, '/sync/login', { userName: options.admin, passwd: options.password })).token;
  type Listed = { id: number; name: string; payType: number };
  const configNamed = async (name: string) => (await api<Listed[]>(server, token, '/api/Config/list', { page: 1, limit: 50, name })).data?.find((c) => c.name === name);
  let config: Listed | undefined;
  if (options.config) {
    config = await configNamed(options.config);
    if (!config) throw new Error(`支付配置 ${options.config} not found (npm run fake-gateways -- --seed writes the fakes' ones)`);
  } else {
    const name = `终端模拟-${options.prefix}`;
    config = await configNamed(name);
    if (!config) {
      must('支付配置', await api(server, token, '/api/Config/save', { name, payType: 3, gateway: 'simulator', partner: `SIM-${options.prefix}` }));
      config = await configNamed(name);
      if (!config) throw new Error(`支付配置 ${name} not found after saving it`);
    }
  }
  const { id: configId, name: configName, payType } = config;
  const machines: SimMachine[] = [];
  for (let i = 1; i <= options.count; i++) {
    const machineNo = `${options.prefix}-${i}`;
    const saved = await api<{ machineId: number; terminalKey: string }>(server, token, '/api/Machine/save', { machineNo, machineName: `终端模拟 ${i}` });
    let machineId: number;
    let key: string;
    if (saved.success && saved.data?.terminalKey) {
      ({ machineId, terminalKey: key } = saved.data);
    } else {
      const list = must('机器列表', await api<{ machineId: number; machineNo: string }[]>(server, token, '/api/Machine/list', { page: 1, limit: 10, machineNo }));
      const row = list.find((m) => m.machineNo === machineNo);
      if (!row) throw new Error(`机器 ${machineNo}: ${saved.msg}`);
      machineId = row.machineId;
      key = must('重置终端密钥', await api<{ terminalKey: string }>(server, token, '/api/Machine/resetKey', { machineId })).terminalKey;
    }
    await api(server, token, '/api/Aisle/createGrid', { machineId, layers: 2, columns: 4, capacity: 50, price: '2.5' });
    await nameGoods(server, token, machineId);
    must('补满', await api(server, token, '/api/Aisle/restock', { machineId }));
    // without `config`, an existing 终端支付配置 for (machine, 微信支付) is kept; with it, the binding is set to it
    const bound = options.config ? must('终端支付配置', await api<{ tcId: number; machineNo: string; payType: number }[]>(server, token, '/api/MachineConfig/list', { page: 1, limit: 50, machineNo })).find((b) => b.machineNo === machineNo && b.payType === payType) : undefined;
    await api(server, token, '/api/MachineConfig/save', { ...(bound ? { tcId: bound.tcId } : {}), machineNo, payType, configId, configName, payOpen: 'T', posNo: '' });
    machines.push({ machineNo, key, payType });
  }
  return machines;
}
