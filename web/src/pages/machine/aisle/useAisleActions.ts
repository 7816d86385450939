import { fill, MachineStatus, messages, type Aisle } from '@huiyun/contract';
import { deleteAisles, restockAisles, setAisleStatus } from '../../../api/machine.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';
import { useConfirm } from '../../../components/useConfirm.ts';

const a = messages.aisle;

/** The actions on a machine's aisles: each shows the server's text and reloads the grid. */
export function useAisleActions(machineId: number) {
  const confirm = useConfirm();
  const restock = useServerAction('aisle', (aisleIds: number[]) => restockAisles(machineId, aisleIds));
  const status = useServerAction('aisle', (input: { aisle: Aisle; status: MachineStatus }) => setAisleStatus([input.aisle.aisleId], input.status));
  const remove = useServerAction('aisle', (aisle: Aisle) => deleteAisles([aisle.aisleId]));
  return {
    restockOne: (aisle: Aisle) => void restock.run([aisle.aisleId], a.actionFailed),
    restockAll: () => confirm({ content: a.restockConfirm, onOk: async () => void (await restock.run([], a.actionFailed)) }),
    toggle: (aisle: Aisle) =>
      void status.run({ aisle, status: aisle.status === MachineStatus.enabled ? MachineStatus.disabled : MachineStatus.enabled }, a.actionFailed),
    remove: (aisle: Aisle) =>
      confirm({
        content: fill(a.deleteConfirm, { aisleNo: aisle.aisleNo }),
        cancelledText: messages.common.cancelledDelete,
        danger: true,
        onOk: async () => void (await remove.run(aisle, a.deleteFailed)),
      }),
    busy: restock.pending || status.pending || remove.pending,
  };
}
