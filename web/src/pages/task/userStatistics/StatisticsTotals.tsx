import { Col, Row, Statistic } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { messages } from '@huiyun/contract';
import { fetchStatisticsTotals } from '../../../api/statistics.ts';

const m = messages.statistics;

/** The four totals (SPEC §2.16) and today's delivered; the history total only for administrators (SPEC §6). */
export function StatisticsTotals({ showHistory }: { showHistory: boolean }) {
  // Under the list's query key: every clear / delete on the screen reloads the totals too.
  const totals = useQuery({ queryKey: ['statistics', 'totals'], queryFn: fetchStatisticsTotals, retry: false, meta: { errorText: m.loadFailed } });

  const items = [
    ...(showHistory ? [{ key: 'hisTotalCount', title: m.hisTotalCount, value: totals.data?.hisTotalCount }] : []),
    { key: 'totalCount', title: m.totalCount, value: totals.data?.totalCount },
    { key: 'todayCount', title: m.todayCount, value: totals.data?.todayCount },
    { key: 'yesterdayCount', title: m.yesterdayCount, value: totals.data?.yesterdayCount },
    { key: 'todayDeliveredCount', title: m.todayDeliveredCount, value: totals.data?.todayDeliveredCount },
  ];
  return (
    <Row gutter={24} className="statistics-totals" style={{ padding: '8px 0' }}>
      {items.map((item) => (
        <Col key={item.key} data-total={item.key}>
          <Statistic title={item.title} value={item.value ?? 0} loading={totals.isLoading} />
        </Col>
      ))}
    </Row>
  );
}
