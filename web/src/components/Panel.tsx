import type { ReactNode } from 'react';
import { theme } from 'antd';

/**
 * A titled white panel that looks like a borderless antd Card. antd's Card brings Tabs (for its
 * tab list) into every screen that uses it; this is the same box without them.
 */
type Props = { title?: ReactNode; extra?: ReactNode; className?: string; children: ReactNode };

export function Panel({ title, extra, className, children }: Props) {
  const { token } = theme.useToken();
  return (
    <section className={className} style={{ background: token.colorBgContainer, borderRadius: token.borderRadiusLG, boxShadow: token.boxShadowTertiary }}>
      {title && (
        <header style={{ padding: `0 ${token.paddingLG}px`, minHeight: 56, display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 16, borderBottom: `1px solid ${token.colorBorderSecondary}`, fontSize: token.fontSizeLG, fontWeight: token.fontWeightStrong, color: token.colorTextHeading }}>
          <span>{title}</span>
          {extra}
        </header>
      )}
      <div style={{ padding: token.paddingLG }}>{children}</div>
    </section>
  );
}
