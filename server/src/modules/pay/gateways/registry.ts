import type { AppContext } from '../../../context.ts';
import { AlipayGateway } from './alipay/gateway.ts';
import { GatewayRegistry } from './gateway.ts';
import { SimulatorGateway } from './simulator/gateway.ts';
import type { SimulatedPlatform } from './simulator/platform.ts';
import { WechatV2Gateway } from './wechat-v2/gateway.ts';
import { WechatV3Gateway } from './wechat-v3/gateway.ts';

// Every gateway this server speaks, by pay_config.gateway: one entry for each of the contract's gateways
// (`PayGateway`), which the compiler holds complete (docs/adding-a-gateway.md). The base URLs are the
// settings WECHATPAY_BASE_URL (both WeChat versions: one host in production) and ALIPAY_GATEWAY_URL; tests
// and demos point them at tools/fake-gateways. The simulator's remote side is `simulated`, in this process.

export function gatewayRegistry(ctx: AppContext, simulated: SimulatedPlatform): GatewayRegistry {
  const { wechatpayBaseUrl, alipayGatewayUrl } = ctx.config;
  return new GatewayRegistry({
    simulator: new SimulatorGateway({ platform: simulated, box: ctx.secrets, now: ctx.now }),
    wechat_v3: new WechatV3Gateway({ baseUrl: wechatpayBaseUrl }),
    wechat_v2: new WechatV2Gateway({ baseUrl: wechatpayBaseUrl }),
    alipay: new AlipayGateway({ gatewayUrl: alipayGatewayUrl }),
  });
}
