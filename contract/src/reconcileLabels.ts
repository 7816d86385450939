import { reconcile as m } from './messages.ts';
import type { Option, ReconcileCategory, ReconcileResult } from './enums.ts';

// The labels of a 对账 run's result, a difference's category and its side: apart from reconcile.ts, whose
// zod schemas would come along with them into 对账's first load (the screen shows them, the schemas are for
// the server and the 处理 dialog).

export const reconcileCategoryOptions: Option<ReconcileCategory>[] = [
  { value: 'gatewayOnly', label: m.categoryGatewayOnly },
  { value: 'platformOnly', label: m.categoryPlatformOnly },
  { value: 'amount', label: m.categoryAmount },
  { value: 'status', label: m.categoryStatus },
];

export const reconcileResultOptions: Option<ReconcileResult>[] = [
  { value: 'matched', label: m.resultMatched },
  { value: 'different', label: m.resultDifferent },
  { value: 'failed', label: m.resultFailed },
  { value: 'running', label: m.resultRunning },
];

export const reconcileKindOptions: Option<'payment' | 'refund'>[] = [
  { value: 'payment', label: m.kindPayment },
  { value: 'refund', label: m.kindRefund },
];
