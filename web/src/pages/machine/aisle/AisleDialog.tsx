import { Input, InputNumber, Select } from 'antd';
import { aisleSave, aisleStatusOptions, fill, MachineStatus, MAX_AISLE_CAPACITY, MAX_AISLE_COLUMNS, MAX_AISLE_LAYERS, messages, type Aisle } from '@huiyun/contract';
import { saveAisle } from '../../../api/machine.ts';
import { FormDialog, SchemaField } from '../../../components/FormDialog/index.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';

const a = messages.aisle;

type Values = {
  layer: number; aisleColumn: number; goodsNo?: string; goodsName?: string; price: string; capacity: number; stock: number; status: MachineStatus;
};

/** 新增 / 编辑 one aisle; the price is typed in yuan (two decimals at most), the server keeps fen. A new one goes to the next free cell of `aisles`. */
export function AisleDialog({ machineId, editing, open, aisles, onClose }: {
  machineId: number; editing: Aisle | null; open: boolean; aisles: Aisle[]; onClose: () => void;
}) {
  const saver = useServerAction('aisle', saveAisle);
  const values: Partial<Values> = editing
    ? { layer: editing.layer, aisleColumn: editing.aisleColumn, goodsNo: editing.goodsNo, goodsName: editing.goodsName, price: editing.price, capacity: editing.capacity, stock: editing.stock, status: editing.status }
    : { ...nextCell(aisles), price: '0.00', capacity: 10, stock: 0, status: MachineStatus.enabled };
  const number = (label: string, min: number, max?: number) => (
    <InputNumber min={min} max={max} precision={0} style={{ width: '100%' }} placeholder={fill(messages.common.inputPlaceholder, { label })} />
  );
  return (
    <FormDialog<Values>
      open={open}
      title={editing ? `${fill(messages.common.editTitle, { name: a.entityName })} ${editing.aisleNo}` : fill(messages.common.addTitle, { name: a.entityName })}
      name="aisle"
      schema={aisleSave}
      values={values}
      onFinish={(v) => saver.run({
        aisleId: editing?.aisleId, machineId, layer: v.layer, aisleColumn: v.aisleColumn, goodsNo: v.goodsNo ?? '', goodsName: v.goodsName ?? '',
        price: String(v.price ?? ''), capacity: v.capacity, stock: v.stock, status: v.status,
      }, a.saveFailed)}
      onClose={onClose}
    >
      <div style={{ display: 'flex', gap: 16 }}>
        <SchemaField name="layer" label={`${a.layer}（1–${MAX_AISLE_LAYERS}，A–Z）`} style={{ flex: 1 }}>{number(a.layer, 1, MAX_AISLE_LAYERS)}</SchemaField>
        <SchemaField name="aisleColumn" label={`${a.aisleColumn}（1–${MAX_AISLE_COLUMNS}）`} style={{ flex: 1 }}>{number(a.aisleColumn, 1, MAX_AISLE_COLUMNS)}</SchemaField>
      </div>
      <SchemaField name="goodsNo" label={a.goodsNo}><Input allowClear /></SchemaField>
      <SchemaField name="goodsName" label={a.goodsName}><Input allowClear /></SchemaField>
      <SchemaField name="price" label={a.price}><Input inputMode="decimal" suffix="元" placeholder="0.00" /></SchemaField>
      <div style={{ display: 'flex', gap: 16 }}>
        <SchemaField name="capacity" label={a.capacity} style={{ flex: 1 }}>{number(a.capacity, 0, MAX_AISLE_CAPACITY)}</SchemaField>
        <SchemaField
          name="stock" label={a.stock} style={{ flex: 1 }} dependencies={['capacity']}
          rulesAfter={[({ getFieldValue }) => ({
            validator: async (_rule, stock) => {
              const capacity = getFieldValue('capacity');
              if (typeof stock === 'number' && typeof capacity === 'number' && stock > capacity) throw new Error(a.stockOverCapacity);
            },
          })]}
        >
          {number(a.stock, 0)}
        </SchemaField>
      </div>
      <SchemaField name="status" label={a.status}><Select options={aisleStatusOptions} /></SchemaField>
    </FormDialog>
  );
}

/** Where a new aisle goes by default: the first layer's next free column. */
export function nextCell(aisles: Aisle[]): { layer: number; aisleColumn: number } {
  const layer = 1;
  const taken = new Set(aisles.filter((x) => x.layer === layer).map((x) => x.aisleColumn));
  let column = 1;
  while (taken.has(column) && column < MAX_AISLE_COLUMNS) column++;
  return { layer, aisleColumn: column };
}
