import { Input, InputNumber, Typography } from 'antd';
import { aisleGridCreate, fill, MAX_AISLE_CAPACITY, MAX_AISLE_COLUMNS, MAX_AISLE_LAYERS, messages } from '@huiyun/contract';
import { createAisleGrid } from '../../../api/machine.ts';
import { FormDialog, SchemaField } from '../../../components/FormDialog/index.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';

const a = messages.aisle;

type Values = { layers: number; columns: number; capacity: number; price: string };

/** 批量生成货道: layers × columns at a default capacity and price; cells that exist stay as they are. */
export function GridDialog({ machineId, open, onClose }: { machineId: number; open: boolean; onClose: () => void }) {
  const creator = useServerAction('aisle', createAisleGrid);
  const number = (label: string, min: number, max: number) => (
    <InputNumber min={min} max={max} precision={0} style={{ width: '100%' }} placeholder={fill(messages.common.inputPlaceholder, { label })} />
  );
  return (
    <FormDialog<Values>
      open={open}
      title={a.createGridTitle}
      name="aisleGrid"
      schema={aisleGridCreate}
      values={{ layers: 4, columns: 6, capacity: 10, price: '0.00' }}
      onFinish={(v) => creator.run({ machineId, layers: v.layers, columns: v.columns, capacity: v.capacity, price: String(v.price ?? '') }, a.saveFailed)}
      onClose={onClose}
      okText={a.createGrid}
    >
      <Typography.Paragraph type="secondary">{a.createGridHint}</Typography.Paragraph>
      <div style={{ display: 'flex', gap: 16 }}>
        <SchemaField name="layers" label={a.layers} style={{ flex: 1 }}>{number(a.layers, 1, MAX_AISLE_LAYERS)}</SchemaField>
        <SchemaField name="columns" label={a.columns} style={{ flex: 1 }}>{number(a.columns, 1, MAX_AISLE_COLUMNS)}</SchemaField>
      </div>
      <div style={{ display: 'flex', gap: 16 }}>
        <SchemaField name="capacity" label={a.defaultCapacity} style={{ flex: 1 }}>{number(a.defaultCapacity, 0, MAX_AISLE_CAPACITY)}</SchemaField>
        <SchemaField name="price" label={a.defaultPrice} style={{ flex: 1 }}><Input inputMode="decimal" suffix="元" /></SchemaField>
      </div>
    </FormDialog>
  );
}
