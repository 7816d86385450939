// Where a gateway sends its notifications (docs/adding-a-gateway.md): the order (or refund) number is in the
// path, so the order — and so its 支付配置 and key — is known before the body is read (a WeChat APIv3 body is
// encrypted and names no order). The URLs are built from PUBLIC_BASE_URL (or the origin a machine called).

export const NOTIFY_ROUTE = '/gateway/:gateway/notify/:orderNo';
/** The order number read from the body (PaymentGateway.orderNoOf): the simulator's first URL, for payments made before the path named the order. */
export const NOTIFY_BODY_ROUTE = '/gateway/:gateway/notify';
export const REFUND_NOTIFY_ROUTE = '/gateway/:gateway/refund-notify/:refundNo';

export const notifyUrlOf = (base: string, gateway: string, orderNo: string) => `${base}/gateway/${encodeURIComponent(gateway)}/notify/${encodeURIComponent(orderNo)}`;
export const refundNotifyUrlOf = (base: string, gateway: string, refundNo: string) => `${base}/gateway/${encodeURIComponent(gateway)}/refund-notify/${encodeURIComponent(refundNo)}`;
