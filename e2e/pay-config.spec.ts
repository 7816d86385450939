import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { maskSecret } from '@huiyun/contract';
import { makeCertificates } from '../tools/fake-gateways/certificates.ts';
import { expect, test, toast, tokenOf, uniqueName } from './fixtures.ts';
import { clickRowAction, deleteRowCancelThenConfirm, dialog, fieldError, pickOption, rowOf, rows, searchList } from './list-page.ts';

const URL = '/pay/Config';

/** A field's label when it carries the required mark (antd's `*`). */
const requiredMark = (scope: Locator, label: string) => scope.locator('label.ant-form-item-required').getByText(label, { exact: true });

type Listed = { id: number; name: string; partnerKey: string; apiV3Key: string; apiCert: string };

/** The config as the API lists it (secrets masked): what the server kept, seen from outside. */
async function listed(page: Page, name: string): Promise<Listed> {
  const answer = await page.request.post('/api/Config/list', { headers: { token: await tokenOf(page) }, data: { page: 1, limit: 10, name } });
  const body = await answer.json();
  expect(body.total).toBe(1);
  return body.data[0];
}

/**
 * The 新增 dialog for a config of a new company: with a second company, whatever ran before, the
 * administrator of several companies picks the config's.
 */
async function addInNewCompany(page: Page): Promise<Locator> {
  const deptName = uniqueName('e2e_paydept');
  const savedDept = await page.request.post('/api/Dept/save', { headers: { token: await tokenOf(page) }, data: { deptName, deptNo: uniqueName('PAYD') } });
  expect((await savedDept.json()).success).toBe(true);
  await page.goto(URL);
  await page.getByRole('button', { name: '新增' }).click();
  const add = dialog(page, '新增支付配置');
  await pickOption(page, add, '所属公司', deptName, { search: true });
  return add;
}

test.describe('支付配置', () => {
  test('the dialog shows the contract messages and the fields of the chosen gateway only', async ({ adminPage: page }) => {
    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增支付配置');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(fieldError(add, '请输入配置名称')).toBeVisible();
    await expect(fieldError(add, '请选择支付方式')).toBeVisible();

    // The simulator (default) asks no gateway keys.
    await expect(add.getByText('模拟网关不连接真实支付渠道，用于演示和测试')).toBeVisible();
    await expect(add.getByLabel('APIv3密钥', { exact: true })).toHaveCount(0);

    await pickOption(page, add, '支付方式', '微信支付');
    await pickOption(page, add, '支付网关', '微信支付 V3');
    for (const label of ['商户号', 'APPID', 'APIv3密钥', '商户私钥', '平台公钥ID', '平台公钥', '商户证书序列号']) {
      await expect(add.getByLabel(label, { exact: true })).toBeVisible();
    }
    await expect(add.getByLabel('应用私钥', { exact: true })).toHaveCount(0);
    await expect(add.getByLabel('支付宝公钥', { exact: true })).toHaveCount(0);
    // V3 needs all of these (contract gatewayFields): each label carries the required mark; 子商户号 does not,
    // nor the platform public key and its id (both, or neither for a merchant on platform certificates)
    for (const label of ['商户号', 'APPID', '回调地址', '商户证书序列号', '商户私钥', 'APIv3密钥']) {
      await expect(requiredMark(add, label), label).toHaveCount(1);
    }
    for (const label of ['子商户号', '平台公钥ID', '平台公钥']) await expect(requiredMark(add, label), label).toHaveCount(0);
    await add.getByRole('button', { name: '保存' }).click();
    await expect(fieldError(add, '请输入APIv3密钥')).toBeVisible();

    // Alipay: its keys, and no WeChat ones.
    await pickOption(page, add, '支付方式', '支付宝');
    await pickOption(page, add, '支付网关', '支付宝');
    await expect(add.getByLabel('应用私钥', { exact: true })).toBeVisible();
    await expect(add.getByLabel('支付宝公钥', { exact: true })).toBeVisible();
    await expect(add.getByLabel('APIv3密钥', { exact: true })).toHaveCount(0);
    await add.getByRole('button', { name: '取消' }).click();
    await expect(add).toBeHidden();
  });

  test('add, search, edit; a secret comes back masked, is kept when saved unchanged and cleared only when asked', async ({ adminPage: page }) => {
    const name = uniqueName('e2e_pay');
    const secret = `E2E-Secret-${Date.now()}-Key`;
    const add = await addInNewCompany(page);
    await add.getByLabel('配置名称', { exact: true }).fill(name);
    await pickOption(page, add, '支付方式', '现金');
    await add.getByLabel('商户号', { exact: true }).fill('MCH-E2E-1');
    await add.getByRole('textbox', { name: '商户密钥', exact: true }).fill(secret);
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '支付配置保存成功！')).toBeVisible();
    await expect(add).toBeHidden();
    expect((await listed(page, name)).partnerKey).toBe(maskSecret(secret));

    await searchList(page, 'payConfig', '配置名称', name);
    await expect(rows(page)).toHaveCount(1);
    const row = rowOf(page, name);
    await expect(row).toContainText('现金');
    await expect(row).toContainText('模拟网关');
    await expect(row).toContainText('MCH-E2E-1');
    await expect(row).not.toContainText(secret);

    // Reopened: the mask, never the secret; saved unchanged: the secret is kept.
    await clickRowAction(page, row, '编辑');
    const edit = dialog(page, '编辑支付配置');
    await expect(edit.getByRole('textbox', { name: '商户密钥', exact: true })).toHaveValue(maskSecret(secret));
    await expect(page.locator('body')).not.toContainText(secret);
    await edit.getByLabel('商户号', { exact: true }).fill('MCH-E2E-2');
    await edit.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '支付配置保存成功！')).toBeVisible();
    await expect(rowOf(page, name)).toContainText('MCH-E2E-2');
    expect((await listed(page, name)).partnerKey).toBe(maskSecret(secret));

    // Cleared explicitly.
    await clickRowAction(page, rowOf(page, name), '编辑');
    const again = dialog(page, '编辑支付配置');
    await again.getByRole('checkbox', { name: '商户密钥' }).check();
    await again.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '支付配置保存成功！')).toBeVisible();
    await expect(again).toBeHidden();
    expect((await listed(page, name)).partnerKey).toBe('');
    await clickRowAction(page, rowOf(page, name), '编辑');
    const third = dialog(page, '编辑支付配置');
    await expect(third.getByRole('textbox', { name: '商户密钥', exact: true })).toHaveValue('');
    await expect(third.getByText('清除已保存的密钥')).toHaveCount(0);
    await third.getByRole('button', { name: '取消' }).click();
  });

  test('search by pay type and merchant number; delete asks first', async ({ adminPage: page }) => {
    const tag = uniqueName('e2e_paysearch');
    const token = await tokenOf(page);
    for (const [suffix, payType] of [['cash', 1], ['wechat', 3]] as const) {
      const answer = await page.request.post('/api/Config/save', { headers: { token }, data: { name: `${tag}_${suffix}`, payType, partner: `${tag}-${suffix}`, deptId: 1 } });
      expect((await answer.json()).success).toBe(true);
    }
    await page.goto(URL);
    const form = page.locator('form#payConfig-search');
    await form.getByLabel('配置名称').fill(tag);
    await pickOption(page, form, '支付方式', '微信支付');
    await form.getByRole('button', { name: '查询' }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rowOf(page, `${tag}_wechat`)).toBeVisible();

    await form.getByRole('button', { name: '重置' }).click();
    await searchList(page, 'payConfig', '商户号', `${tag}-cash`);
    await expect(rows(page)).toHaveCount(1);
    const row = rowOf(page, `${tag}_cash`);
    await deleteRowCancelThenConfirm(page, row, { confirm: '确定删除选中的数据吗？', deleted: '支付配置已删除！' });
    await expect(rows(page)).toHaveCount(0);
  });

  test('WeChat V2: the merchant API certificate is uploaded in the dialog and kept sealed, shown masked', async ({ adminPage: page }) => {
    const name = uniqueName('e2e_payv2');
    // a certificate that loads, issued to the 商户号 below (the save opens it: password = the 商户号)
    const p12 = makeCertificates('1900000111').clientP12;
    const add = await addInNewCompany(page);
    await add.getByLabel('配置名称', { exact: true }).fill(name);
    await pickOption(page, add, '支付方式', '微信支付');
    await pickOption(page, add, '支付网关', '微信支付 V2');
    await add.getByLabel('商户号', { exact: true }).fill('1900000111');
    await add.getByLabel('APPID', { exact: true }).fill('wxe2e0002');
    await add.getByLabel('回调地址', { exact: true }).fill('https://pay.example.com/notify');
    await pickOption(page, add, '签名方式', 'MD5');
    await add.getByLabel('商户密钥', { exact: true }).fill('E2E-V2-Key-0123456789abcdef01234');
    // V2 refunds need the API certificate (contract gatewayFields): marked, and asked for before saving
    await expect(requiredMark(add, 'API证书')).toHaveCount(1);
    await expect(requiredMark(add, '证书密码')).toHaveCount(0);
    await add.getByRole('button', { name: '保存' }).click();
    await expect(fieldError(add, '请输入API证书')).toBeVisible();
    await add.locator('input[type=file]').setInputFiles({ name: 'apiclient_cert.p12', mimeType: 'application/x-pkcs12', buffer: p12 });
    // (by its label: now required, its accessible name starts with antd's * mark)
    await expect(add.getByLabel('API证书', { exact: true })).toHaveValue(p12.toString('base64'));
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '支付配置保存成功！')).toBeVisible();
    await expect(add).toBeHidden();
    const saved = await listed(page, name);
    expect(saved.apiCert).toBe(maskSecret(p12.toString('base64')));
    const removed = await page.request.delete(`/api/Config/delete?ids=${saved.id}`, { headers: { token: await tokenOf(page) } });
    expect((await removed.json()).success).toBe(true);
  });

  test('检测 of a config its gateway does not accept: a dialog lists what failed, naming the field to fix', async ({ adminPage: page }) => {
    // keys that parse but are no merchant's: the WeChat Pay fake (if the real-gateway journey serves it now)
    // refuses the signature, else nothing answers on the suite's WECHATPAY_BASE_URL — either way not valid
    const name = uniqueName('e2e_paycheck');
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const saved = await page.request.post('/api/Config/save', {
      headers: { token: await tokenOf(page) },
      data: {
        name, payType: 3, gateway: 'wechat_v3', deptId: 1, partner: '1900000109', appid: 'wxd678efh567hg6787', notifyUrl: 'https://pay.example.com/notify',
        certSerialNo: randomBytes(20).toString('hex').toUpperCase(), apiV3Key: randomBytes(16).toString('hex'),
        rsaKey: keys.privateKey.export({ format: 'pem', type: 'pkcs8' }), platformPubKeyId: 'PUB_KEY_ID_0114232134912410000000000000',
        platformPubKey: keys.publicKey.export({ format: 'pem', type: 'spki' }),
      },
    });
    expect((await saved.json()).success).toBe(true);
    await page.goto(URL);
    await searchList(page, 'payConfig', '配置名称', name);
    await clickRowAction(page, rowOf(page, name), '检测');
    const result = dialog(page, `检测结果：${name}`);
    await expect(result.getByText(/^支付配置不可用：/)).toBeVisible();
    await expect(result.locator('li.check-failed')).toHaveCount(1);
    await expect(result.locator('li.check-failed')).toContainText(/请检查商户私钥与商户证书序列号|无法连接支付网关/);
    await result.locator('.ant-modal-footer').getByRole('button', { name: '关闭' }).click();
    await expect(result).toBeHidden();
  });
});

test('支付配置 fits 1366 px without a sideways scroll', async ({ adminPage: page }) => {
  const name = uniqueName('e2e_payfit');
  const answer = await page.request.post('/api/Config/save', { headers: { token: await tokenOf(page) }, data: { name, payType: 1, partner: 'MCH-FIT-0001', deptId: 1, partnerKey: 'fit-secret-0123456789' } });
  expect((await answer.json()).success).toBe(true);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(URL);
  await searchList(page, 'payConfig', '配置名称', name);
  await expect(rows(page)).toHaveCount(1);
  const content = page.locator('.ant-table-content').first();
  const { scrollWidth, clientWidth } = await content.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  await expect(page.locator('.ant-table-thead th').filter({ hasText: '操作' })).toBeVisible();
});
