import type { AppContext } from '../../../context.ts';
import { AlipayGateway } from './alipay/gateway.ts';
import { GatewayRegistry } from './gateway.ts';
import { readablePayAccount } from './pay-account-cache.ts';
import { SimulatorGateway } from './simulator/gateway.ts';
import { WechatV2Gateway } from './wechat-v2/gateway.ts';
import { WechatV3Gateway } from './wechat-v3/gateway.ts';

// Every gateway this server speaks, by pay_config.gateway: a new gateway is one line here
// (docs/adding-a-gateway.md). The base URLs are the settings WECHATPAY_BASE_URL (both WeChat versions: one
// host in production) and ALIPAY_GATEWAY_URL; tests and demos point them at tools/fake-gateways. A gateway
// with work of its own in this server (the simulator) has lifecycle hooks (PaymentGateway.routes, start,
// settled, stop), which the order module's runtime, the notify plugin and main.ts call for every gateway.

export function gatewayRegistry(ctx: AppContext): GatewayRegistry {
  const { wechatpayBaseUrl, alipayGatewayUrl } = ctx.config;
  return new GatewayRegistry()
    .add(new SimulatorGateway({ db: ctx.db, box: ctx.secrets, now: ctx.now, configOf: (id) => readablePayAccount(ctx, id) }))
    .add(new WechatV3Gateway({ baseUrl: wechatpayBaseUrl }))
    .add(new WechatV2Gateway({ baseUrl: wechatpayBaseUrl }))
    .add(new AlipayGateway({ gatewayUrl: alipayGatewayUrl }));
}
