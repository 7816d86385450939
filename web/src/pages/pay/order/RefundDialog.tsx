import { useState } from 'react';
import { Descriptions, Input } from 'antd';
import { fenToYuan, fill, messages, orderRefundRequest, yuanShown, yuanToFen, type Order } from '@huiyun/contract';
import { refundOrder } from '../../../api/order.ts';
import { FormDialog, SchemaField } from '../../../components/FormDialog/index.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';
import { useConfirm } from '../../../components/useConfirm.ts';
import { exceedsIssue, keepsKeyAfter, newRefundKey } from './refund.ts';

const m = messages.order;

type Values = { amount: string; reason: string };

/**
 * One key per opening of the dialog: a double click, or a retry after no answer, sends the same key and
 * the server answers the refund it made with it. A definite failure renews it (refund.ts keepsKeyAfter).
 */
function useRefundKey(open: boolean) {
  const [state, setState] = useState(() => ({ open, key: newRefundKey() }));
  if (open !== state.open) setState({ open, key: open ? newRefundKey() : state.key });
  return { key: state.key, renew: () => setState({ open, key: newRefundKey() }) };
}

/** 退款 of one consumption order: amount (default all that is refundable) and reason, confirmed before it is sent. */
export function RefundDialog({ order, onClose }: { order: Order | null; onClose: () => void }) {
  const open = order !== null;
  const requestKey = useRefundKey(open);
  const confirm = useConfirm();
  const refund = useServerAction('order', refundOrder, {
    onFailed: (error) => {
      if (!keepsKeyAfter(error)) requestKey.renew();
    },
  });
  // the row of the latest opening, kept while the dialog closes
  const [shown, setShown] = useState(order);
  if (order && order !== shown) setShown(order);

  const submit = (values: Values) =>
    new Promise<boolean>((resolve) => {
      if (!shown) return resolve(false);
      const amount = fenToYuan(yuanToFen(values.amount) ?? 0);
      confirm({
        content: fill(m.refundConfirm, { amount }),
        danger: true,
        onOk: async () => resolve(await refund.run({ orderId: shown.orderId, amount, reason: values.reason.trim(), requestKey: requestKey.key }, m.refundSendFailed)),
        onCancel: () => resolve(false),
      });
    });

  return (
    <FormDialog<Values>
      open={open}
      title={m.refundTitle}
      name="refund"
      schema={orderRefundRequest}
      values={order ? { amount: order.refundableAmount, reason: '' } : undefined}
      onFinish={submit}
      onClose={onClose}
      okText={m.refundSubmit}
    >
      {shown && (
        <Descriptions column={3} size="small" className="refund-order" style={{ marginBottom: 16 }}>
          <Descriptions.Item label={m.orderNo} span={3}>{shown.orderNo}</Descriptions.Item>
          <Descriptions.Item label={m.payAmount}>{yuanShown(shown.payAmount)}</Descriptions.Item>
          <Descriptions.Item label={m.refundedAmount}>{yuanShown(shown.refundedAmount)}</Descriptions.Item>
          <Descriptions.Item label={m.refundableAmount}>{yuanShown(shown.refundableAmount)}</Descriptions.Item>
        </Descriptions>
      )}
      <SchemaField
        name="amount"
        label={m.refundAmount}
        rulesAfter={[{
          validator: async (_rule, value) => {
            const issue = shown && exceedsIssue(value, shown.refundableAmount);
            if (issue) throw new Error(issue);
          },
        }]}
      >
        <Input inputMode="decimal" suffix={m.yuanSuffix} placeholder="0.00" />
      </SchemaField>
      <SchemaField name="reason" label={m.refundReason}>
        <Input.TextArea rows={3} maxLength={100} showCount />
      </SchemaField>
    </FormDialog>
  );
}
