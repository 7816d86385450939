import { createHmac, randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { expect, test, tokenOf, uniqueName } from './fixtures.ts';

// 支付模拟: a machine signs an order (docs/terminal-protocol.md), the customer opens the
// code url on a phone and presses 支付成功, the order becomes 已支付.

async function signed(request: APIRequestContext, machineNo: string, key: string, path: string, body: unknown) {
  const raw = JSON.stringify(body);
  const full = `/terminal/v1${path}`;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(12).toString('hex');
  const signature = createHmac('sha256', key).update(`POST\n${full}\n${timestamp}\n${nonce}\n${raw}`).digest('hex');
  const answer = await request.post(full, { headers: { 'content-type': 'application/json', 'x-machine-no': machineNo, 'x-timestamp': timestamp, 'x-nonce': nonce, 'x-signature': signature }, data: raw });
  return answer.json();
}

test('支付模拟: a customer pays on a phone and the machine sees 已支付', async ({ adminPage: page, browser }) => {
  const token = await tokenOf(page);
  const api = async (path: string, data: unknown) => (await page.request.post(path, { headers: { token }, data })).json();
  const machineNo = uniqueName('PAYSIM').replace(/_/g, '-').slice(0, 32).toUpperCase();
  const saved = await api('/api/Machine/save', { machineNo, machineName: '支付模拟测试机' });
  const { machineId, terminalKey } = saved.data;
  await api('/api/Aisle/createGrid', { machineId, layers: 1, columns: 2, capacity: 5, price: '3.5' });
  expect((await api('/api/Aisle/restock', { machineId })).success).toBe(true);
  const configs = await api('/api/Config/list', { page: 1, limit: 20, name: '演示-模拟网关' });
  const config = configs.data.find((c: { name: string }) => c.name.startsWith('演示-模拟网关'));
  expect((await api('/api/MachineConfig/save', { machineNo, payType: 3, configId: config.id, configName: config.name, payOpen: 'T', posNo: '' })).success).toBe(true);

  const created = await signed(page.request, machineNo, terminalKey, '/order/create', { aisleNo: 'A1', payType: 3 });
  expect(created).toMatchObject({ success: true, data: { amount: '3.50' } });

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const customer = await phone.newPage();
  await customer.goto(created.data.codeUrl);
  await expect(customer.getByRole('heading', { name: '支付模拟' })).toBeVisible();
  await expect(customer.getByText('¥ 3.50')).toBeVisible();
  const pay = customer.getByRole('button', { name: '支付成功' });
  const box = await pay.boundingBox();
  expect(box!.width).toBeGreaterThan(300); // a full-width button on a phone
  await pay.click();
  await expect(customer.getByText('支付成功，商户将收到支付通知')).toBeVisible();
  await phone.close();

  await expect.poll(async () => (await signed(page.request, machineNo, terminalKey, '/order/status', { orderNo: created.data.orderNo })).data.orderStatus).toBe(2);
  const done = await signed(page.request, machineNo, terminalKey, '/order/dispense', { orderNo: created.data.orderNo, success: true });
  expect(done.data.orderStatus).toBe(3);
});
