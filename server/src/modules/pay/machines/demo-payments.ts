import type { Kysely } from 'kysely';
import { aisleNoOf, MachineStatus, PayType, yuanToFen } from '@huiyun/contract';
import type { SecretBox } from '../../../infra/secret-box.ts';
import { newTerminalKey, sealTerminalKey } from './terminal-key.ts';
import type { Database } from '../../../db/schema.ts';

// The payment demo: on a fresh installation the demo company (db/seed.ts) gets two vending
// machines with their aisles, a 支付配置 on the simulator gateway (no secrets) and the 终端支付配置 rows
// binding both machines to it, so a newcomer sees every payment screen filled. Every name says 演示.
// Fresh = no account exists yet (server/src/seed.ts runs this before the first accounts are made): an
// upgraded installation never gets demo rows, and what an operator deletes never comes back.

export const DEMO_PAY_CONFIG_NAME = '演示-模拟网关（微信）';
export const DEMO_GATEWAY = 'simulator';

type DemoGoods = { goodsNo: string; goodsName: string; price: string };
const goods: DemoGoods[] = [
  { goodsNo: 'DEMO-G01', goodsName: '演示-矿泉水 550ml', price: '2.00' },
  { goodsNo: 'DEMO-G02', goodsName: '演示-可乐 330ml', price: '3.00' },
  { goodsNo: 'DEMO-G03', goodsName: '演示-冰红茶 500ml', price: '3.50' },
  { goodsNo: 'DEMO-G04', goodsName: '演示-绿茶 500ml', price: '3.00' },
  { goodsNo: 'DEMO-G05', goodsName: '演示-能量饮料 250ml', price: '6.00' },
  { goodsNo: 'DEMO-G06', goodsName: '演示-薯片 75g', price: '5.50' },
  { goodsNo: 'DEMO-G07', goodsName: '演示-夹心饼干 97g', price: '6.50' },
  { goodsNo: 'DEMO-G08', goodsName: '演示-巧克力棒 51g', price: '4.00' },
  { goodsNo: 'DEMO-G09', goodsName: '演示-罐装咖啡 180ml', price: '6.00' },
  { goodsNo: 'DEMO-G10', goodsName: '演示-柠檬茶 250ml', price: '4.50' },
  { goodsNo: 'DEMO-G11', goodsName: '演示-坚果 30g', price: '9.90' },
  { goodsNo: 'DEMO-G12', goodsName: '演示-口香糖', price: '1.50' },
];

export const demoMachines = [
  { machineNo: 'DEMO-0001', machineName: '演示售货机（大厅）', address: '演示地址：汇云大厦一层大厅', layers: 3, columns: 4 },
  { machineNo: 'DEMO-0002', machineName: '演示售货机（二楼茶水间）', address: '演示地址：汇云大厦二楼茶水间', layers: 2, columns: 4 },
];

const CAPACITY = 10;

export async function seedDemoPayments(db: Kysely<Database>, options: { box: SecretBox; deptId: number; now?: number }): Promise<void> {
  const now = options.now ?? Date.now();
  await db.transaction().execute(async (trx) => {
    if (await trx.selectFrom('sys_user').select('userId').limit(1).executeTakeFirst()) return;
    if (await trx.selectFrom('pay_config').select('id').where('name', '=', DEMO_PAY_CONFIG_NAME).executeTakeFirst()) return;
    const audit = { addUser: 'system', editUser: 'system', addTime: now, editTime: now };
    const config = await trx
      .insertInto('pay_config')
      .values({ deptId: options.deptId, name: DEMO_PAY_CONFIG_NAME, payType: PayType.wechat, gateway: DEMO_GATEWAY, partner: 'DEMO-SIMULATOR', ...audit })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [index, machine] of demoMachines.entries()) {
      const inserted = await trx
        .insertInto('pay_machine')
        .values({
          machineNo: machine.machineNo, machineName: machine.machineName, deptId: options.deptId, address: machine.address,
          status: MachineStatus.enabled, terminalKey: sealTerminalKey(options.box, newTerminalKey()), lastSeenAt: null, ...audit,
        })
        .onConflict((oc) => oc.column('machineNo').doNothing())
        .returning('machineId')
        .executeTakeFirst();
      if (!inserted) continue;
      const aisles = [];
      for (let layer = 1; layer <= machine.layers; layer++) {
        for (let column = 1; column <= machine.columns; column++) {
          const item = goods[((layer - 1) * machine.columns + column - 1 + index * 3) % goods.length]!;
          aisles.push({
            machineId: inserted.machineId, aisleNo: aisleNoOf(layer, column), layer, aisleColumn: column,
            goodsNo: item.goodsNo, goodsName: item.goodsName, price: yuanToFen(item.price)!,
            // a few aisles run low or empty, so 补满 has something to do
            capacity: CAPACITY, stock: (layer * 7 + column * 3 + index) % (CAPACITY + 1), status: MachineStatus.enabled, ...audit,
          });
        }
      }
      await trx.insertInto('pay_aisle').values(aisles).execute();
      await trx
        .insertInto('pay_terminal_config')
        .values({ deptId: options.deptId, machineNo: machine.machineNo, payType: PayType.wechat, configId: config.id, configName: DEMO_PAY_CONFIG_NAME, payOpen: 'T', posNo: '', ...audit })
        .onConflict((oc) => oc.columns(['machineNo', 'payType']).doNothing())
        .execute();
    }
  });
}
