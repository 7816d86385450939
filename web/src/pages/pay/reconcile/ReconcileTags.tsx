import { Tag } from 'antd';
import { labelOf, messages, reconcileCategoryOptions, reconcileResultOptions } from '@huiyun/contract';

const m = messages.reconcile;

const resultColors: Record<string, string> = { matched: 'green', different: 'red', failed: 'volcano', running: 'blue' };
const categoryColors: Record<string, string> = { gatewayOnly: 'magenta', platformOnly: 'orange', amount: 'red', status: 'gold' };

export function ResultTag({ result }: { result: string }) {
  return <Tag color={resultColors[result] ?? 'default'}>{labelOf(reconcileResultOptions, result as never)}</Tag>;
}

export function CategoryTag({ category }: { category: string }) {
  return <Tag color={categoryColors[category] ?? 'default'}>{labelOf(reconcileCategoryOptions, category as never)}</Tag>;
}

export function HandledTag({ handled }: { handled: 0 | 1 }) {
  return handled ? <Tag color="green">{m.handledYes}</Tag> : <Tag>{m.handledNo}</Tag>;
}
