import { Progress, theme, Tooltip } from 'antd';
import { fill, MachineStatus, messages, yuanShown, type Aisle } from '@huiyun/contract';
import { stockPercent } from './AisleTable.tsx';

const a = messages.aisle;

/** The aisles as the machine's front: one row per layer (A, B …), one cell per column; a click edits. */
export function AisleGridView({ aisles, onEdit, canSave }: { aisles: Aisle[]; onEdit: (aisle: Aisle) => void; canSave: boolean }) {
  const { token } = theme.useToken();
  const layers = [...new Set(aisles.map((x) => x.layer))].sort((x, y) => x - y);
  const columns = Math.max(0, ...aisles.map((x) => x.aisleColumn));
  return (
    <div className="aisle-grid" style={{ display: 'grid', gap: 8, overflowX: 'auto' }}>
      {layers.map((layer) => {
        const byColumn = new Map(aisles.filter((x) => x.layer === layer).map((x) => [x.aisleColumn, x]));
        return (
          <div key={layer} role="group" aria-label={fill(a.layerOf, { layer })} style={{ display: 'grid', gridTemplateColumns: `64px repeat(${columns}, minmax(120px, 1fr))`, gap: 8 }}>
            <div style={{ display: 'flex', alignItems: 'center', color: token.colorTextSecondary }}>{fill(a.layerOf, { layer })}</div>
            {Array.from({ length: columns }, (_, i) => {
              const aisle = byColumn.get(i + 1);
              if (!aisle) return <div key={i} style={{ border: `1px dashed ${token.colorBorder}`, borderRadius: token.borderRadius }} />;
              const disabled = aisle.status !== MachineStatus.enabled;
              return (
                <Tooltip key={i} title={aisle.goodsNo ? `${a.goodsNo}: ${aisle.goodsNo}` : undefined}>
                  <button
                    type="button"
                    className="aisle-cell"
                    disabled={!canSave}
                    onClick={() => onEdit(aisle)}
                    style={{
                      textAlign: 'left', padding: 8, cursor: canSave ? 'pointer' : 'default', font: 'inherit',
                      border: `1px solid ${aisle.stock === 0 ? token.colorErrorBorder : token.colorBorderSecondary}`, borderRadius: token.borderRadius,
                      background: disabled ? token.colorFillTertiary : token.colorBgContainer, opacity: disabled ? 0.6 : 1,
                    }}
                  >
                    <div style={{ display: 'flex', justifyContent: 'space-between', fontWeight: token.fontWeightStrong }}>
                      <span>{aisle.aisleNo}</span>
                      <span>{yuanShown(aisle.price)}</span>
                    </div>
                    <div style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', color: aisle.goodsName ? undefined : token.colorTextTertiary }}>
                      {aisle.goodsName || a.emptyCell}{disabled ? `（${a.disabled}）` : ''}
                    </div>
                    <div style={{ fontSize: token.fontSizeSM, color: token.colorTextSecondary }}>{a.stock} {aisle.stock} / {aisle.capacity}</div>
                    <Progress percent={stockPercent(aisle)} size="small" showInfo={false} style={{ margin: 0 }} status={aisle.stock === 0 ? 'exception' : 'normal'} />
                  </button>
                </Tooltip>
              );
            })}
          </div>
        );
      })}
    </div>
  );
}
