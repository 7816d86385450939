import fs from 'node:fs';

/** CPU seconds a process has used (utime + stime of /proc/<pid>/stat, in 100 Hz ticks); 0 where /proc is not there. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
