import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cpuSeconds, postgresCpuSeconds } from './process-cpu.ts';

const ended = (code: string) => Object.assign(new Error(`${code}: no such process`), { code });

describe.skipIf(!fs.existsSync('/proc/self/stat'))('process CPU from /proc', () => {
  afterEach(() => void vi.restoreAllMocks());

  it('reads this process\'s CPU time', () => {
    expect(cpuSeconds(process.pid)).toBeGreaterThan(0);
  });

  it('passes over a process that ends while PostgreSQL\'s are summed, whether before the open or between the open and the read', () => {
    for (const code of ['ENOENT', 'ESRCH']) {
      const read = fs.readFileSync;
      vi.spyOn(fs, 'readFileSync').mockImplementation(((file: fs.PathOrFileDescriptor, options?: unknown) => {
        if (String(file) !== `/proc/${process.pid}/stat`) throw ended(code);
        return read(file, options as BufferEncoding);
      }) as typeof fs.readFileSync);
      expect(postgresCpuSeconds()).toBe(0);
      vi.restoreAllMocks();
    }
  });

  it('still says so when the process asked for by pid has ended', () => {
    vi.spyOn(fs, 'readFileSync').mockImplementation(() => { throw ended('ESRCH'); });
    expect(() => cpuSeconds(1)).toThrow(/has ended/);
  });
});
