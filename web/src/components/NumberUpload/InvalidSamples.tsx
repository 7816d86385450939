import { Button, Typography } from 'antd';
import { DownloadOutlined } from '../../shared/icons.tsx';
import { fill, messages, type InvalidLine } from '@huiyun/contract';

/** How many samples the result dialog shows; the rest come as a file, so the dialog stays on screen. */
export const SHOWN_INVALID_SAMPLES = 5;

const lineOf = (s: InvalidLine) => `${s.line}: ${s.text}`;

/** Saves every sample the server sent as a .txt, one 'line: text' a row. */
function saveSamples(samples: InvalidLine[]) {
  const blob = new Blob([samples.map(lineOf).join('\r\n')], { type: 'text/plain;charset=utf-8' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = messages.upload.invalidSamplesFileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** The first invalid lines of an upload, 'line: text' one a row (shown whole, wrapped), and a download of all. */
export function InvalidSamples({ samples }: { samples: InvalidLine[] }) {
  return (
    <div className="invalid-samples" style={{ minWidth: 0 }}>
      {samples.slice(0, SHOWN_INVALID_SAMPLES).map((s) => (
        <Typography.Text key={`${s.line}-${s.text}`} code style={{ display: 'block', wordBreak: 'break-all' }}>
          {lineOf(s)}
        </Typography.Text>
      ))}
      {samples.length > SHOWN_INVALID_SAMPLES && (
        <Button type="link" size="small" icon={<DownloadOutlined />} style={{ paddingInline: 0 }} onClick={() => saveSamples(samples)}>
          {fill(messages.upload.invalidSamplesDownload, { count: samples.length })}
        </Button>
      )}
    </div>
  );
}
