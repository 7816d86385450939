import { describe, expect, it } from 'vitest';
import { contains } from '../list/search.ts';
import { useDatabaseBefore } from '../../test/migration-test-support.ts';

describe('migration 0030_pay_config_drop_cert_path', () => {
  const schema = useDatabaseBefore('0029_pay_config_api_cert');

  it('drops 证书路径 and keeps every other field of the configs there, still searchable', async () => {
    await schema.migrate();
    const db = schema.db();
    await db.insertInto('pay_config').values({ deptId: 1, name: '旧微信V2', payType: 3, gateway: 'wechat_v2', partner: 'MCH-OLD-30', appid: 'wx-old', signType: 'MD5', certPath: '/etc/huiyun/apiclient_cert.p12', apiCert: 'sealed', addTime: 1, editTime: 2 }).execute();
    await schema.finish();
    const row = await db.selectFrom('pay_config').selectAll().where('partner', '=', 'MCH-OLD-30').executeTakeFirstOrThrow();
    expect(row).not.toHaveProperty('certPath');
    expect(row).toMatchObject({ name: '旧微信V2', payType: 3, gateway: 'wechat_v2', appid: 'wx-old', signType: 'MD5', apiCert: 'sealed', editTime: 2 });
    const found = await db.selectFrom('pay_config').select('name').where(contains(db as never, 'pay_config', 'partner', 'OLD-3').condition).execute();
    expect(found.map((r) => r.name)).toEqual(['旧微信V2']);
  });
});
