import { Col, Row, Statistic } from 'antd';
import { messages, type SalesCard } from '@huiyun/contract';
import { Panel } from '../../../components/Panel.tsx';

const m = messages.salesCharts;
const titles: Record<SalesCard['key'], [string, string]> = { today: [m.today, m.vsPrevious], yesterday: [m.yesterday, m.vsDayBefore], month: [m.thisMonth, m.vsLastMonth] };

/** The change against the period before, as +12.5% / -3.0%; none when the period before had nothing. */
function Change({ now, before }: { now: number; before: number }) {
  if (before === 0) return <span className="sales-card-change" style={{ color: '#999' }}>{now === 0 ? '0.0%' : m.noPrevious}</span>;
  const change = ((now - before) / Math.abs(before)) * 100;
  const color = change > 0 ? '#cf1322' : change < 0 ? '#389e0d' : '#999';
  return <span className="sales-card-change" style={{ color }}>{`${change > 0 ? '+' : ''}${change.toFixed(1)}%`}</span>;
}

/** 今日 / 昨日 / 本月: amount and count, each against the period before. */
export function SalesCards({ cards, loading }: { cards: SalesCard[]; loading: boolean }) {
  return (
    <Row gutter={16}>
      {cards.map((card) => {
        const [title, versus] = titles[card.key];
        return (
          <Col span={8} key={card.key}>
            <Panel className={`sales-card sales-card-${card.key}`}>
              <Row gutter={16}>
                <Col span={12}>
                  <Statistic title={`${title}${m.amount}`} value={card.amount} prefix="¥" loading={loading} />
                  <div>{versus} <Change now={Number(card.amount)} before={Number(card.previousAmount)} /></div>
                </Col>
                <Col span={12}>
                  <Statistic title={`${title}${m.count}`} value={card.count} loading={loading} />
                  <div>{versus} <Change now={card.count} before={card.previousCount} /></div>
                </Col>
              </Row>
            </Panel>
          </Col>
        );
      })}
    </Row>
  );
}
