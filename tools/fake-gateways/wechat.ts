import { pagePathOrderNo, serveLoopback, type FakeRequest } from './http.ts';
import { createFakeWechatV2, type FakeWechatV2Options } from './wechat-v2.ts';
import { createFakeWechatV3, type FakeWechatV3Options } from './wechat-v3.ts';

// WeChat Pay as the merchant sees it: APIv3 (/v3/…) and APIv2 (/pay/…, /secapi/…) on one host
// (api.mch.weixin.qq.com), so one WECHATPAY_BASE_URL serves both gateways. Here: both fakes on one loopback
// port, HTTPS with the APIv2 fake's CA (its refunds need the merchant's client certificate) and plain HTTP
// on the same port for the customers' pages (/pay/<orderNo>, of whichever fake holds the order).

export async function startFakeWechat(options: FakeWechatV2Options & FakeWechatV3Options & { port?: number } = {}) {
  const v3 = createFakeWechatV3(options);
  const v2 = createFakeWechatV2(options);
  const route = (request: FakeRequest) => {
    if (request.path.startsWith('/v3/')) return v3.handle(request);
    const orderNo = pagePathOrderNo(request.path);
    return orderNo !== undefined && v3.books.payments.has(orderNo) ? v3.handle(request) : v2.handle(request);
  };
  const server = await serveLoopback(options.port ?? 0, route, v2.tls);
  const urls = { api: server.secureUrl!, pages: server.url };
  v3.mount(urls);
  v2.mount(urls);
  return {
    v3, v2,
    /** WECHATPAY_BASE_URL (HTTPS: the server trusts caPem, e.g. NODE_EXTRA_CA_CERTS) */
    baseUrl: urls.api,
    /** The same port in plain HTTP: the customers' pages (and the API for a client without the CA, e.g. APIv3 in tests) */
    plainUrl: urls.pages,
    caPem: v2.certs.caPem,
    close: server.close,
  };
}
export type FakeWechat = Awaited<ReturnType<typeof startFakeWechat>>;
