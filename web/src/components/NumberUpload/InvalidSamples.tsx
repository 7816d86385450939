import { Typography } from 'antd';
import type { InvalidLine } from '@huiyun/contract';

/** The first invalid lines of an upload, 'line: text' one a row. */
export function InvalidSamples({ samples }: { samples: InvalidLine[] }) {
  return samples.map((s) => (
    <Typography.Text key={`${s.line}-${s.text}`} code style={{ display: 'block' }}>
      {`${s.line}: ${s.text}`}
    </Typography.Text>
  ));
}
