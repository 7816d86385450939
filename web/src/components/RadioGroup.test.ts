import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RadioGroup } from './RadioGroup.tsx';

/** Every source file of the console (path from web/src → text). */
const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.ts'], { query: '?raw', import: 'default', eager: true });

describe('radio groups', () => {
  it('are radiogroups named by their label', () => {
    const html = renderToStaticMarkup(createElement(RadioGroup, { label: '状态', options: [{ value: 'T', label: '启用' }, { value: 'F', label: '停用' }] }));
    expect(html).toContain('role="radiogroup"');
    expect(html).toContain('aria-label="状态"');
  });

  it('come from components/RadioGroup.tsx only, so none is left without a name', () => {
    const files = Object.entries(sources).map(([key, text]) => ({ file: key.replace(/^\.\.\//, '').replace(/^\.\//, 'components/'), text }));
    expect(files.map((f) => f.file)).toContain('pages/machine/config/TerminalConfigDialog.tsx');
    const bare = files.filter((f) => f.file !== 'components/RadioGroup.tsx' && /<Radio\.Group\b/.test(f.text)).map((f) => f.file);
    expect(bare).toEqual([]);
  });
});
