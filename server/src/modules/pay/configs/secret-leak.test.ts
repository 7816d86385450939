import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskSecret } from '@huiyun/contract';
import { buildApp, type App } from '../../../app.ts';
import { loadConfig } from '../../../config.ts';
import { sealPurpose } from '../../../infra/sealed-columns.ts';
import { ADMIN_PASSWORD } from '../../../test/harness.ts';
import { testMerchantCertificate, testRsaKeys } from '../../../test/pay-keys.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../../../test/test-database.ts';

// A payment secret never appears in clear in an API answer, an export, the operation log,
// a log line or an error message, nor in the database. A known secret goes through the whole
// create / edit / list / export / delete cycle (and through refusals) on a server logging at trace
// level into a captured stream; then every answer, every log line and the database (on SQLite the raw
// bytes of its file, WAL included; on PostgreSQL every row of every table) are searched for it.

const SECRETS = {
  apiV3Key: 'S3cr3t-Known-ApiV3-Key-7f1e9b2cd',
  // keys and certificates that load (the save parses them)
  rsaKey: testRsaKeys('leak').privatePem,
  partnerKey: 'Partner-Known-Key-55aa66bb77cc',
  apiCert: testMerchantCertificate('1900000110').p12Base64,
  replaced: 'Replaced-Known-ApiV3-Key-0d0e0f1',
  refused: 'Refused-Known-Secret-9x8y7z6w',
  malformed: 'Malformed-Known-Secret-1q2w3e4r',
};

/** The clear secret, its middle (what a mask hides) and its base64 form: none may show up. */
const needles = Object.values(SECRETS).flatMap((s) => [s, s.slice(4, -4), Buffer.from(s).toString('base64')]);

let app: App;
let testDb: TestDatabase | undefined;
let dataDir: string;
const logLines: string[] = [];
const answers: string[] = [];

async function call(method: string, url: string, token: string | undefined, body?: unknown, headers: Record<string, string> = {}) {
  const raw = await app.app.inject({
    method: method as 'POST', url, headers: { ...(token ? { token } : {}), ...headers }, ...(body !== undefined ? { payload: body as object } : {}),
  });
  if (String(raw.headers['content-type']).includes('spreadsheetml')) {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(raw.rawPayload as unknown as ArrayBuffer);
    const cells = workbook.worksheets.flatMap((sheet) => Array.from({ length: sheet.rowCount }, (_, i) => JSON.stringify(sheet.getRow(i + 1).values)));
    answers.push(cells.join('\n'));
    return { status: raw.statusCode, body: undefined, cells };
  }
  answers.push(raw.body);
  return { status: raw.statusCode, body: raw.json() as { success: boolean; msg: string; data: any; total?: number } };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-secret-leak-'));
  const config = loadConfig({ ADMIN_PASSWORD, DATA_DIR: dataDir, LOGIN_SLOWDOWN_MS: '0', LOG_LEVEL: 'trace' });
  // SQLite: the file under DATA_DIR (never :memory:), so its bytes can be read.
  if (testDbKind() === 'postgres') testDb = await createTestDatabase({ migrated: true });
  app = await buildApp(config, { db: testDb?.db, logStream: { write: (line) => void logLines.push(line) } });
});
afterAll(async () => {
  await testDb?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Every stored byte: the SQLite files of DATA_DIR, or every row of every PostgreSQL table as text. */
async function storedText(): Promise<Buffer> {
  if (!testDb) {
    const files = fs.readdirSync(dataDir).filter((f) => f.startsWith('huiyun.db'));
    expect(files).toContain('huiyun.db');
    return Buffer.concat(files.map((f) => fs.readFileSync(path.join(dataDir, f))));
  }
  const tables = (await testDb.db.introspection.getTables()).map((t) => t.name);
  const parts: string[] = [];
  for (const table of tables) {
    const { rows } = await sql<{ r: string }>`select row_to_json(t)::text as r from ${sql.table(table)} t`.execute(testDb.db);
    parts.push(...rows.map((r) => r.r));
  }
  return Buffer.from(parts.join('\n'));
}

function expectNoSecret(where: string, haystack: string | Buffer) {
  for (const needle of needles) expect(haystack.indexOf(needle), `${where} holds ${needle.slice(0, 12)}…`).toBe(-1);
}

describe('a payment secret', () => {
  it('never appears in clear in an answer, an export, the operation log, a log line or the database', async () => {
    const login = await call('POST', '/sync/login', undefined, { userName: 'admin', passwd: ADMIN_PASSWORD });
    const token = login.body!.data.token as string;

    const v3 = {
      name: '泄漏测试V3', payType: 3, gateway: 'wechat_v3', partner: '1900000109', appid: 'wx0001', notifyUrl: 'https://pay.example.com/n',
      certSerialNo: 'SERIAL01', rsaKey: SECRETS.rsaKey, apiV3Key: SECRETS.apiV3Key, platformPubKeyId: 'PUB_KEY_ID_01', platformPubKey: testRsaKeys('leak-platform').publicPem,
    };
    const created = await call('POST', '/api/Config/save', token, v3);
    expect(created.body!.success).toBe(true);
    const id = created.body!.data.id as number;
    const sim = await call('POST', '/api/Config/save', token, { name: '泄漏测试模拟', payType: 1, partnerKey: SECRETS.partnerKey });
    const simId = sim.body!.data.id as number;
    // the WeChat v2 merchant API certificate (uploaded in the dialog): sealed like the keys, masked, kept when sent back masked
    const v2 = { name: '泄漏测试V2', payType: 3, gateway: 'wechat_v2', partner: '1900000110', appid: 'wx0002', notifyUrl: 'https://pay.example.com/n', signType: 'MD5', partnerKey: SECRETS.partnerKey, apiCert: SECRETS.apiCert };
    const v2Id = (await call('POST', '/api/Config/save', token, v2)).body!.data.id as number;
    const v2Row = (await call('POST', '/api/Config/list', token, { page: 1, limit: 10, name: '泄漏测试V2' })).body!.data[0];
    expect(v2Row.apiCert).toBe(maskSecret(SECRETS.apiCert));
    expect((await call('POST', '/api/Config/save', token, { ...v2Row, name: '泄漏测试V2-改' })).body!.success).toBe(true);
    const v2Kept = await app.ctx.db.selectFrom('pay_config').select('apiCert').where('id', '=', v2Id).executeTakeFirstOrThrow();
    expect(app.ctx.secrets.open(sealPurpose('pay_config', 'apiCert'), v2Kept.apiCert)).toBe(SECRETS.apiCert);

    // Refusals carrying a secret: a rule broken, a body that is no JSON.
    const refused = await call('POST', '/api/Config/save', token, { ...v3, name: '', apiV3Key: SECRETS.refused });
    expect(refused.body!.success).toBe(false);
    const refusedGateway = await call('POST', '/api/Config/save', token, { ...v3, partner: '', apiV3Key: SECRETS.refused });
    expect(refusedGateway.body!.success).toBe(false);
    const malformed = await call('POST', '/api/Config/save', token, `{"name":"x","apiV3Key":"${SECRETS.malformed}"`, { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);

    const listed = await call('POST', '/api/Config/list', token, { page: 1, limit: 10, name: '泄漏测试' });
    expect(listed.body!.total).toBe(3);
    const row = listed.body!.data.find((r: { id: number }) => r.id === id);
    expect(row.apiV3Key).toBe(maskSecret(SECRETS.apiV3Key));

    // Edit: saved back as listed (masks) keeps the secrets; then one replaced.
    expect((await call('POST', '/api/Config/save', token, { ...row, name: '泄漏测试V3-改' })).body!.success).toBe(true);
    const kept = await app.ctx.db.selectFrom('pay_config').select(['apiV3Key', 'rsaKey']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(app.ctx.secrets.open(sealPurpose('pay_config', 'apiV3Key'), kept.apiV3Key)).toBe(SECRETS.apiV3Key);
    expect(app.ctx.secrets.open(sealPurpose('pay_config', 'rsaKey'), kept.rsaKey)).toBe(SECRETS.rsaKey);
    expect((await call('POST', '/api/Config/save', token, { ...row, apiV3Key: SECRETS.replaced })).body!.success).toBe(true);

    const exported = await call('POST', '/api/Config/export', token, { name: '泄漏测试' });
    expect(exported.status).toBe(200);
    expect(exported.cells!.join('\n')).toContain('泄漏测试模拟');

    // A terminal bound to the config, listed and exported, then unbound.
    const now = Date.now();
    await app.ctx.db.insertInto('pay_machine').values({
      machineNo: 'LEAK-01', machineName: '泄漏测试机', deptId: 1, terminalKey: app.ctx.secrets.seal(sealPurpose('pay_machine', 'terminalKey'), 'k'), addTime: now, editTime: now,
    }).execute();
    const bound = await call('POST', '/api/MachineConfig/save', token, { machineNo: 'LEAK-01', payType: 1, configId: simId, configName: '现金', payOpen: 'T' });
    expect(bound.body!.success).toBe(true);
    await call('POST', '/api/MachineConfig/list', token, { page: 1, limit: 10, machineNo: 'LEAK' });
    await call('POST', '/api/MachineConfig/configs', token, { machineNo: 'LEAK-01', payType: 1 });
    await call('POST', '/api/MachineConfig/export', token, {});
    await call('DELETE', `/api/MachineConfig/delete?ids=${bound.body!.data.tcId}`, token);

    const operLog = await call('POST', '/api/OperLog/list', token, { page: 1, limit: 50 });
    expect(operLog.body!.total).toBeGreaterThan(3);
    await call('POST', '/api/OperLog/export', token, {});

    expect((await call('DELETE', `/api/Config/delete?ids=${id},${simId},${v2Id}`, token)).body!.success).toBe(true);
    expect((await call('POST', '/api/Config/list', token, { page: 1, limit: 10, name: '泄漏测试' })).body!.total).toBe(0);

    const beforeClose = await storedText();
    await app.app.close();

    expect(answers.length).toBeGreaterThan(15);
    expect(logLines.length).toBeGreaterThan(20); // trace level: every request logged twice at least
    // The searches look where the values are: the masks in the answers, sealed values in the database.
    expect(answers.join('\n')).toContain(maskSecret(SECRETS.apiV3Key));
    expect(logLines.join('')).toContain('/api/Config/save');
    expect(beforeClose.indexOf('s1.')).toBeGreaterThanOrEqual(0);
    expectNoSecret('an answer', answers.join('\n'));
    expectNoSecret('the log', logLines.join(''));
    expectNoSecret('the database', beforeClose);
    expectNoSecret('the database after close', await storedText().catch(() => Buffer.alloc(0)));
    if (!testDb) {
      // The whole data directory (the key file, uploads) holds none either.
      for (const file of fs.readdirSync(dataDir, { recursive: true }) as string[]) {
        const full = path.join(dataDir, file);
        if (fs.statSync(full).isFile()) expectNoSecret(file, fs.readFileSync(full));
      }
    }
  });
});
