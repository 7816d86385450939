// `npm run fake-gateways -- [--wechat-port N] [--alipay-port N] [--minutes N] [--seed --server URL --admin user:PASSWORD]`:
// local fakes of WeChat Pay (APIv3 and APIv2 on one port, as on WeChat's one host) and Alipay on 127.0.0.1,
// signing like the real services with keys made at start. Prints the values to paste
// into a 支付配置 and the settings to start the server with; --seed writes them into three 支付配置 of a
// running server instead (seed.ts). Stops by itself after --minutes (default 120), or on Ctrl+C.
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeAlipay } from './alipay.ts';
import { seedPayConfigs } from './seed.ts';
import { startFakeWechat } from './wechat.ts';

export const USAGE = 'npm run fake-gateways -- [--wechat-port 18501] [--alipay-port 18502] [--minutes 120] [--seed --server http://127.0.0.1:3000 --admin admin:PASSWORD]';

export function parseFakeArgs(argv: string[]) {
  const num = (name: string, fallback: number, min: number, max: number) => {
    const i = argv.indexOf(`--${name}`);
    if (i < 0) return fallback;
    const value = Number(argv[i + 1]);
    if (!Number.isInteger(value) || value < min || value > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}\n${USAGE}`);
    return value;
  };
  const text = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i < 0 ? undefined : argv[i + 1];
  };
  const seed = argv.includes('--seed');
  const [admin = '', ...rest] = (text('admin') ?? '').split(':');
  if (seed && (!admin || rest.length === 0)) throw new Error(`--seed needs --admin user:password\n${USAGE}`);
  return {
    help: argv.includes('--help') || argv.includes('-h'),
    seed: seed ? { server: text('server') ?? 'http://127.0.0.1:3000', admin, password: rest.join(':') } : undefined,
    wechatPort: num('wechat-port', 18501, 0, 65535), alipayPort: num('alipay-port', 18502, 0, 65535), minutes: num('minutes', 120, 1, 24 * 60),
  };
}

const block = (title: string, rows: [string, string][]) =>
  `\n== ${title} ==\n${rows.map(([k, v]) => (v.includes('\n') ? `${k}:\n${v.trim()}\n` : `${k}: ${v}`)).join('\n')}`;

async function main(argv: string[]): Promise<number> {
  const cli = parseFakeArgs(argv);
  if (cli.help) {
    console.log(USAGE);
    return 0;
  }
  const wechat = await startFakeWechat({ port: cli.wechatPort });
  const { v3, v2 } = wechat;
  const alipay = await startFakeAlipay({ port: cli.alipayPort });
  // one path per port (made again on every start): the server's start command stays the same
  const caFile = path.join(tmpdir(), `huiyun-fake-wechat-ca-${new URL(wechat.baseUrl).port}.pem`);
  writeFileSync(caFile, wechat.caPem);
  console.log(block('微信支付 V3 (fake) — 支付配置', [
    ['商户号', v3.account.mchid], ['AppID', v3.account.appid], ['商户API证书序列号', v3.account.certSerialNo], ['APIv3密钥', v3.account.apiV3Key],
    ['微信支付公钥ID', v3.account.platformPubKeyId], ['微信支付公钥', v3.account.platformPublicKey], ['商户API私钥', v3.account.merchantPrivateKey],
  ]));
  console.log(block('微信支付 V2 (fake) — 支付配置', [
    ['商户号', v2.account.mchid], ['AppID', v2.account.appid], ['APIv2密钥', v2.account.apiKey], ['API证书 (apiclient_cert.p12, base64; 证书密码 = 商户号)', v2.certs.clientP12.toString('base64')],
  ]));
  console.log(block('支付宝 (fake) — 支付配置', [
    ['AppID', alipay.account.appId], ['合作伙伴身份 (PID)', alipay.account.sellerId], ['签名方式', 'RSA2'],
    ['应用私钥', alipay.account.appPrivateKey], ['支付宝公钥', alipay.account.alipayPublicKey],
  ]));
  console.log(block('Server settings', [
    ['WECHATPAY_BASE_URL (微信支付 V2 and V3: one host, HTTPS with its own CA)', wechat.baseUrl], ['NODE_EXTRA_CA_CERTS (the server trusts that CA)', caFile],
    ['ALIPAY_GATEWAY_URL', alipay.gatewayUrl], ['Customer pages (the QR codes)', `${wechat.plainUrl}/pay/<orderNo>, ${alipay.baseUrl}/pay/<orderNo>`],
    ['Start the server with', `PAY_RECONCILE_TODAY=true WECHATPAY_BASE_URL=${wechat.baseUrl} NODE_EXTRA_CA_CERTS=${caFile} ALIPAY_GATEWAY_URL=${alipay.gatewayUrl} npm start`],
  ]));
  if (cli.seed) {
    console.log(`\nSeeding 支付配置 into ${cli.seed.server} (waiting for it to answer) …`);
    const ids = await untilServerAnswers(() => seedPayConfigs({ v3, v2, alipay }, cli.seed!));
    console.log(block(`Seeded into ${cli.seed.server} (支付配置 ids)`, Object.entries(ids).map(([gateway, id]) => [gateway, String(id)])));
  }
  console.log(`\nRunning for ${cli.minutes} minutes; Ctrl+C stops.`);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, cli.minutes * 60_000);
    process.once('SIGINT', () => {
      clearTimeout(timer);
      resolve();
    });
    process.once('SIGTERM', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  await Promise.all([wechat.close(), alipay.close()]);
  rmSync(caFile, { force: true });
  return 0;
}

/** The server may be starting after the fakes (it reads their settings at start): connection refusals are waited out, 5 minutes at most. */
async function untilServerAnswers<T>(call: () => Promise<T>): Promise<T> {
  for (let waited = 0; ; waited++) {
    try {
      return await call();
    } catch (error) {
      const refused = error instanceof TypeError && /ECONNREFUSED/.test(String((error as { cause?: unknown }).cause));
      if (!refused || waited >= 300) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
