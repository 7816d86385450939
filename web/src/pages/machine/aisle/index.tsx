import { lazy, Suspense, useState } from 'react';
import { Button, Empty, Radio, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { fill, MachineStatus, messages, Perm, type Aisle } from '@huiyun/contract';
import { aisleGrid } from '../../../api/machine.ts';
import { queryKeys } from '../../../api/queryKeys.ts';
import { usePermission } from '../../../shared/useCurrentUser.ts';
import { useAllowedEntries } from '../../../components/useAllowedEntries.tsx';
import { AppstoreOutlined, PlusOutlined, ReloadOutlined, UnorderedListOutlined } from '../../../shared/icons.tsx';
import { Panel } from '../../../components/Panel.tsx';
import { RadioGroup } from '../../../components/RadioGroup.tsx';
import { AisleGridView } from './AisleGridView.tsx';
import { AisleTable } from './AisleTable.tsx';
import { MachineSelect } from './MachineSelect.tsx';
import { useAisleActions } from './useAisleActions.ts';
import { useOpenedOnce } from '../../../components/useOpenedOnce.ts';
import { useEditDialog } from '../../../components/useEditDialog.ts';

// The two dialogs (antd Form, the contract's aisle schemas and zod) load when first opened.
const AisleDialog = lazy(() => import('./AisleDialog.tsx').then((d) => ({ default: d.AisleDialog })));
const GridDialog = lazy(() => import('./GridDialog.tsx').then((d) => ({ default: d.GridDialog })));

const a = messages.aisle;

/** 货道信息: pick a machine, see and edit its aisles as a table or as the machine's front. */
export function MachineAislePage() {
  const [params, setParams] = useSearchParams();
  const machineId = Number(params.get('machineId')) || undefined;
  const choose = (id: number | undefined) => setParams(id ? { machineId: String(id) } : {}, { replace: true });
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Panel>
        <Space wrap>
          <label htmlFor="aisle-machine">{a.machine}</label>
          <MachineSelect value={machineId} onChange={choose} />
        </Space>
      </Panel>
      {machineId ? <AisleBoard key={machineId} machineId={machineId} /> : <Panel><Empty description={a.pickMachineHint} /></Panel>}
    </Space>
  );
}

function AisleBoard({ machineId }: { machineId: number }) {
  const canSave = usePermission(Perm.aisleSave);
  const grid = useQuery({ queryKey: queryKeys.options('aisle', 'grid', machineId), queryFn: () => aisleGrid(machineId), meta: { errorText: a.loadFailed } });
  const actions = useAisleActions(machineId);
  const [view, setView] = useState<'table' | 'grid'>('table');
  const aisleDialog = useEditDialog<Aisle>();
  const [gridOpen, setGridOpen] = useState(false);
  const gridOpened = useOpenedOnce(gridOpen);
  const aisles = grid.data?.aisles ?? [];
  const stock = aisles.reduce((n, x) => n + x.stock, 0);
  const capacity = aisles.reduce((n, x) => n + x.capacity, 0);
  const machine = grid.data?.machine;
  const toolbar = useAllowedEntries([
    { key: 'add', permission: Perm.aisleSave, render: () => <Button type="primary" icon={<PlusOutlined />} onClick={aisleDialog.openAdd}>{a.add}</Button> },
    { key: 'grid', permission: Perm.aisleSave, render: () => <Button onClick={() => setGridOpen(true)}>{a.createGrid}</Button> },
    { key: 'restockAll', permission: Perm.aisleSave, render: () => <Button icon={<ReloadOutlined />} disabled={actions.busy || aisles.length === 0} onClick={actions.restockAll}>{a.restockAll}</Button> },
  ], undefined);

  return (
    <Panel
      title={machine ? `${machine.machineNo} ${machine.machineName}${machine.status === MachineStatus.enabled ? '' : `（${messages.machine.disabled}）`}` : a.title}
      extra={
        // Radio buttons rather than Segmented: the console's static antd CSS leaves Segmented out (web/build/antd-css.ts).
        <RadioGroup label={a.view} size="small" optionType="button" value={view} onChange={(e) => setView(e.target.value as 'table' | 'grid')}>
          <Radio.Button value="table"><UnorderedListOutlined /> {a.viewTable}</Radio.Button>
          <Radio.Button value="grid"><AppstoreOutlined /> {a.viewGrid}</Radio.Button>
        </RadioGroup>
      }
    >
      <div className="list-toolbar" style={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 8, marginBottom: 16 }}>
        <Space wrap>{toolbar}</Space>
        {aisles.length > 0 && <Typography.Text type="secondary">{fill(a.total, { count: aisles.length, stock, capacity })}</Typography.Text>}
      </div>
      {!grid.isLoading && aisles.length === 0 ? (
        <Empty description={a.noAisles} />
      ) : view === 'table' ? (
        <AisleTable aisles={aisles} loading={grid.isLoading} actions={actions} onEdit={aisleDialog.openEdit} />
      ) : (
        <AisleGridView aisles={aisles} canSave={canSave} onEdit={aisleDialog.openEdit} />
      )}
      <Suspense fallback={null}>
        {aisleDialog.opened && (
          <AisleDialog machineId={machineId} open={aisleDialog.open} editing={aisleDialog.editing} aisles={aisles} onClose={aisleDialog.close} />
        )}
        {gridOpened && <GridDialog machineId={machineId} open={gridOpen} onClose={() => setGridOpen(false)} />}
      </Suspense>
    </Panel>
  );
}
