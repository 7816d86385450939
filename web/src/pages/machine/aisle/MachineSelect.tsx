import { useDeferredValue, useState } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { messages } from '@huiyun/contract';
import { machineOptions } from '../../../api/machine.ts';
import { queryKeys } from '../../../api/queryKeys.ts';

const a = messages.aisle;

/** The caller's machines, searched on the server by number or name (a company may have thousands). */
export function MachineSelect({ value, onChange }: { value?: number; onChange: (machineId: number | undefined) => void }) {
  const [keyword, setKeyword] = useState('');
  const deferred = useDeferredValue(keyword);
  const options = useQuery({
    queryKey: queryKeys.options('machine', 'select', deferred, value ?? 0),
    queryFn: () => machineOptions(deferred, value),
    placeholderData: (previous) => previous,
    meta: { errorText: messages.machine.loadFailed },
  });
  return (
    <Select
      id="aisle-machine"
      aria-label={a.machine}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      allowClear
      value={value}
      onChange={(id) => onChange(id)}
      onClear={() => setKeyword('')}
      loading={options.isFetching}
      placeholder={a.searchMachine}
      style={{ width: 360, maxWidth: '100%' }}
      options={(options.data ?? []).map((o) => ({ value: o.machineId, label: `${o.machineNo} ${o.machineName}` }))}
    />
  );
}
