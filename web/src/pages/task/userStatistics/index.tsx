import { Button } from 'antd';
import { ClearOutlined } from '../../../shared/icons.tsx';
import {
  fill, messages, Perm, SUPER_ADMIN_USER_ID, type TaskUserStatistics,
} from '@huiyun/contract';
import {
  clearHistoryTotals, clearSendNum, clearTotalSendNum, deleteTaskUser, exportTaskUserStatistics, listTaskUserStatistics,
  type StatisticsFilters,
} from '../../../api/statistics.ts';
import { ListPage, type ListColumn, type RowAction } from '../../../components/ListPage/index.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';
import { useConfirm } from '../../../components/useConfirm.ts';
import { useCurrentUser, usePermission } from '../../../shared/useCurrentUser.ts';
import { StatisticsTotals } from './StatisticsTotals.tsx';
import { taskUserDialog } from './taskUserDialog.ts';

const m = messages.statistics;
const STATISTICS_PAGE_SIZE = 10; // SPEC §9

const columns: ListColumn<TaskUserStatistics>[] = [
  { key: 'userId', title: m.userId, width: 90 },
  { key: 'userName', title: m.userName },
  {
    key: 'totalSendNum', title: m.totalSendNumSplit,
    render: (_value, row) =>
      fill(m.totalSplit, { total: row.totalSendNum, mobile: row.smcount, unicom: row.sucount, telecom: row.stcount, other: row.socount }),
  },
  { key: 'deliveredNum', title: m.deliveredNum, width: 100 },
  { key: 'sendNum', title: m.sendNum, width: 110 },
];

/** 用户发送统计 (SPEC §2.16): totals, accounts and their counters; add / clear / delete for administrators. */
export function UserStatisticsPage() {
  const me = useCurrentUser().data;
  // The history totals are the administrators', like the sub-accounts' actions below.
  const isAdmin = usePermission({ account: 'administrator' });
  const confirm = useConfirm();
  const clearHistory = useServerAction('statistics', clearHistoryTotals);
  // The task sub-accounts are the administrators' business; 清空历史 is account 1's.
  const rowActions: RowAction<TaskUserStatistics>[] = [
    {
      key: 'clearTotal', label: m.clearTotal, permission: Perm.taskUserClear, account: 'administrator',
      confirm: (row) => fill(m.confirmClearTotal, { userName: row.userName }),
      cancelledText: messages.common.cancelledClear,
      run: (row) => clearTotalSendNum(row.userId),
      failText: m.clearFailed,
    },
    {
      key: 'clearSingle', label: m.clearSingle, permission: Perm.taskUserClear, account: 'administrator',
      confirm: (row) => fill(m.confirmClearSingle, { userName: row.userName }),
      cancelledText: messages.common.cancelledClear,
      run: (row) => clearSendNum(row.userId),
      failText: m.clearFailed,
    },
    {
      key: 'deleteAccount', label: m.deleteAccount, danger: true, permission: Perm.taskUserDelete, account: 'administrator',
      // never account 1 nor yourself (the server refuses anyway)
      visible: (row) => row.userId !== SUPER_ADMIN_USER_ID && row.userId !== me?.userId,
      confirm: (row) => fill(m.confirmDeleteAccount, { userName: row.userName }),
      cancelledText: messages.common.cancelledDelete,
      run: (row) => deleteTaskUser(row.userId),
      failText: m.deleteFailed,
    },
  ];

  const askClearHistory = () =>
    confirm({
      content: m.confirmClearHistory,
      cancelledText: messages.common.cancelledClear,
      danger: true,
      onOk: async () => {
        await clearHistory.run(undefined, m.clearFailed);
      },
    });

  return (
    <ListPage<TaskUserStatistics, StatisticsFilters>
      queryKey="statistics"
      rowKey="userId"
      fetcher={listTaskUserStatistics}
      columns={columns}
      defaultPageSize={STATISTICS_PAGE_SIZE}
      title={<StatisticsTotals showHistory={isAdmin} />}
      searchFields={[{ name: 'userName', label: m.userName }]}
      edit={taskUserDialog()}
      rowActions={rowActions}
      exporter={{ run: exportTaskUserStatistics, failText: messages.common.exportFailed }}
      toolbar={[
        {
          key: 'clearHistory',
          account: 'accountOne',
          render: () => (
            <Button danger icon={<ClearOutlined />} onClick={askClearHistory} loading={clearHistory.pending}>
              {m.clearHistory}
            </Button>
          ),
        },
      ]}
    />
  );
}
