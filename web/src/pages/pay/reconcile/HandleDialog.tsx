import { Descriptions, Input } from 'antd';
import { messages, reconcileHandleRequest, type ReconcileDiff } from '@huiyun/contract';
import { handleReconcileDiff } from '../../../api/reconcile.ts';
import { FormDialog, SchemaField } from '../../../components/FormDialog/index.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';
import { CategoryTag } from './ReconcileTags.tsx';

const m = messages.reconcile;
type Values = { note: string };

/** 标记处理: a note on a difference (the server writes who and when, and the operation log). */
export function HandleDialog({ diff, onClose }: { diff: ReconcileDiff | null; onClose: () => void }) {
  const action = useServerAction('reconcileDiff', handleReconcileDiff);
  const submit = (values: Values) => (diff ? action.run({ diffId: diff.diffId, note: values.note.trim() }, m.handleFailed) : false);
  return (
    <FormDialog<Values>
      open={diff !== null}
      title={m.handleTitle}
      name="reconcileHandle"
      schema={reconcileHandleRequest}
      values={{ note: diff?.handleNote ?? '' }}
      onFinish={submit}
      onClose={onClose}
    >
      {diff && (
        <Descriptions column={2} size="small" style={{ marginBottom: 16 }}>
          <Descriptions.Item label={m.category}><CategoryTag category={diff.category} /></Descriptions.Item>
          <Descriptions.Item label={diff.refundNo ? m.refundNo : m.orderNo}>{diff.refundNo || diff.orderNo}</Descriptions.Item>
          <Descriptions.Item label={m.platformDiffAmount}>{diff.platformAmount || m.sideMissing}</Descriptions.Item>
          <Descriptions.Item label={m.gatewayDiffAmount}>{diff.gatewayAmount || m.sideMissing}</Descriptions.Item>
        </Descriptions>
      )}
      <SchemaField name="note" label={m.handleNote}>
        <Input.TextArea rows={3} maxLength={200} showCount />
      </SchemaField>
    </FormDialog>
  );
}
