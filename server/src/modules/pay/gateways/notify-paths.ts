// Where a gateway sends its notifications (docs/adding-a-gateway.md): the order (or refund) number is in the
// path, so the order — and so its 支付配置 and key — is known before the body is read (a WeChat APIv3 body is
// encrypted and names no order); a payment's URL names its 支付配置 as well, so its notification is verified
// before the order is read, and paid in one statement (order/notify.ts). The URLs are built from PUBLIC_BASE_URL (or the origin a machine called).

/** The URL an order's payment is given (notifyUrlOf): it names the 支付配置 too, so a notification is verified before anything is read. */
export const NOTIFY_CONFIG_ROUTE = '/gateway/:gateway/config/:configId/notify/:orderNo';
/** The URL of the payments made before the path named the 支付配置 (until 2026-11-27). */
export const NOTIFY_ROUTE = '/gateway/:gateway/notify/:orderNo';
/** The order number read from the body (PaymentGateway.orderNoOf): the simulator's first URL, for payments made before the path named the order. */
export const NOTIFY_BODY_ROUTE = '/gateway/:gateway/notify';
export const REFUND_NOTIFY_ROUTE = '/gateway/:gateway/refund-notify/:refundNo';

export const notifyUrlOf = (base: string, gateway: string, configId: number, orderNo: string) =>
  `${base}/gateway/${encodeURIComponent(gateway)}/config/${configId}/notify/${encodeURIComponent(orderNo)}`;
export const refundNotifyUrlOf = (base: string, gateway: string, refundNo: string) => `${base}/gateway/${encodeURIComponent(gateway)}/refund-notify/${encodeURIComponent(refundNo)}`;
