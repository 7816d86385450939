import { AlipayGateway } from './alipay/gateway.ts';
import { GatewayRegistry } from './gateway.ts';
import type { SimulatorGateway } from './simulator/gateway.ts';
import { WechatV2Gateway } from './wechat-v2/gateway.ts';
import { WechatV3Gateway } from './wechat-v3/gateway.ts';

// Every gateway this server speaks, by pay_config.gateway: a new gateway is one line here
// (docs/adding-a-gateway.md). The base URLs are the settings WECHATPAY_BASE_URL (both WeChat versions: one
// host in production) and ALIPAY_GATEWAY_URL; tests and demos point them at tools/fake-gateways.

export type GatewaySettings = {
  wechatpayBaseUrl: string;
  alipayGatewayUrl: string;
  /** A CA the WeChat APIv2 client trusts besides the system's (the local fake's); unset in production. */
  wechatTlsCa?: string;
  now?: () => number;
};

export function gatewayRegistry(simulator: SimulatorGateway, s: GatewaySettings): GatewayRegistry {
  const now = s.now ? { now: s.now } : {};
  return new GatewayRegistry()
    .add(simulator)
    .add(new WechatV3Gateway({ baseUrl: s.wechatpayBaseUrl, ...now }))
    .add(new WechatV2Gateway({ baseUrl: s.wechatpayBaseUrl, ...(s.wechatTlsCa ? { tlsCa: s.wechatTlsCa } : {}), ...now }))
    .add(new AlipayGateway({ gatewayUrl: s.alipayGatewayUrl, ...now }));
}
