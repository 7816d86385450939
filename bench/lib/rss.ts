import fs from 'node:fs';

// A process's memory as the kernel counts it (Linux /proc): VmRSS now, VmHWM the peak since the
// process started or since its peak counter was last reset.

/** Resets the kernel's peak-RSS counter of a process (Linux: /proc/<pid>/clear_refs). */
export function resetPeakRss(pid: number): void {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not Linux or not allowed: VmHWM is then the peak since the server started
  }
}

export function readRss(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}
