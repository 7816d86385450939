import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fill, idInPath, messages } from '@huiyun/contract';
import { type PaymentGateway, NOTIFY_BODY_ROUTE, NOTIFY_CONFIG_ROUTE, NOTIFY_ROUTE, REFUND_NOTIFY_ROUTE } from '../gateways/index.ts';
import type { NotifyAnswer } from './notify.ts';
import type { Payments } from './payments.ts';
import { answers } from '../../../http/route-doc.ts';

// What the gateways call (public: the gateway's own signature is checked against the order's 支付配置,
// never a session): /gateway/<gateway>/config/<configId>/notify/<orderNo> (before: /gateway/<gateway>/notify/<orderNo>)
// and /gateway/<gateway>/refund-notify/<refundNo>,
// each answered with that gateway's acknowledgement.

/** The content types the gateways post (WeChat v3 JSON, v2 XML, Alipay a form), kept as the raw string. */
const RAW_TYPES = ['application/json', 'text/xml', 'application/xml', 'application/x-www-form-urlencoded'];

/** In this plugin's scope only: the body reaches the verifier as the bytes received (as text), unparsed. */
function keepRawBodies(app: FastifyInstance): void {
  for (const type of RAW_TYPES) {
    if (app.hasContentTypeParser(type)) app.removeContentTypeParser(type);
    app.addContentTypeParser(type, { parseAs: 'string' }, (request, body, done) => {
      request.rawBody = String(body);
      done(null, undefined);
    });
  }
}

/** The gateway's acknowledgement (or refusal) of a notification, with its HTTP status. */
function acknowledge(reply: FastifyReply, gateway: PaymentGateway, answer: NotifyAnswer) {
  const ack = gateway.acknowledgement(answer.ok, answer.message);
  return reply.code(ack.status ?? (answer.ok ? 200 : 400)).type(ack.contentType).send(ack.body);
}

export function notifyRoutes(payments: Payments) {
  return async (app: FastifyInstance) => {
    await app.register(async (scope) => {
      keepRawBodies(scope);
      const access = { access: 'public' as const, doc: { tag: 'gateway', note: '支付网关的异步通知：请求体为该网关自己的签名格式，按原文验签，不是本系统的 JSON', answer: answers.gatewayAck } };
      const unknownGateway = (reply: FastifyReply, name: string) => reply.code(404).type('text/plain; charset=utf-8').send(fill(messages.terminal.gatewayUnknown, { gateway: name.slice(0, 32) }));

      // a 支付配置 id in the path is checked for its range (idInPath) before any query: PostgreSQL refuses a larger
      // value for its integer column with an error (a 500, and a stack logged per anonymous request)
      const badConfigId = (reply: FastifyReply) => reply.code(400).type('text/plain; charset=utf-8').send(messages.terminal.notifyBadConfigId);
      // an order number is checked for its shape (isOrderNo) before any query, in the handlers; without one in
      // the path (NOTIFY_BODY_ROUTE: a gateway's URL from before the path named the order), the body's
      // (PaymentGateway.orderNoOf: none for a gateway whose body is encrypted)
      const paid = async (request: FastifyRequest, reply: FastifyReply) => {
        const { gateway: name, orderNo, configId } = request.params as { gateway: string; orderNo?: string; configId?: string };
        const gateway = payments.gateways.get(name);
        if (!gateway) return unknownGateway(reply, name);
        const configInPath = configId === undefined ? undefined : idInPath(configId);
        if (configId !== undefined && configInPath === undefined) return badConfigId(reply);
        return acknowledge(reply, gateway, await payments.handlePaidNotification(name, request.rawBody ?? '', request.headers, request.log, orderNo, configInPath));
      };
      scope.post(NOTIFY_CONFIG_ROUTE, { config: access }, paid);
      scope.post(NOTIFY_ROUTE, { config: access }, paid);
      scope.post(NOTIFY_BODY_ROUTE, { config: access }, paid);

      scope.post(REFUND_NOTIFY_ROUTE, { config: access }, async (request, reply) => {
        const { gateway: name, refundNo } = request.params as { gateway: string; refundNo: string };
        const gateway = payments.gateways.get(name);
        if (!gateway) return unknownGateway(reply, name);
        return acknowledge(reply, gateway, await payments.handleRefundNotification(name, refundNo, request.rawBody ?? '', request.headers, request.log));
      });
    });
  };
}
