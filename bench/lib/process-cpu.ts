import fs from 'node:fs';

// Linux only: a process's CPU time from /proc/<pid>/stat (utime and stime in clock ticks of 1/100 s).
// The benches that print CPU figures read it here.

/** Whether this machine tells a process's CPU time (a bench leaves its CPU column out where it does not). */
export const canReadProcessCpu = fs.existsSync('/proc/self/stat');

/**
 * /proc/<pid>/stat, or undefined when the process has ended (throws where there is no /proc): gone before the
 * open (ENOENT) or between the open and the read (ESRCH).
 */
function statOf(pid: number | string): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if ((code === 'ENOENT' || code === 'ESRCH') && canReadProcessCpu) return undefined;
    throw error;
  }
}

/** The fields after the process's name (field 3 on: [11] utime, [12] stime, [13] cutime, [14] cstime). */
const fieldsOf = (stat: string) => stat.replace(/^.*\) /s, '').split(' ');
const seconds = (ticks: string | undefined, more: string | undefined) => (Number(ticks) + Number(more)) / 100;

/** CPU seconds process `pid` has used so far, user + system; throws where /proc is not there or the process has ended. */
export function cpuSeconds(pid: number): number {
  const stat = statOf(pid);
  if (stat === undefined) throw new Error(`process ${pid} has ended: its CPU time cannot be read`);
  const fields = fieldsOf(stat);
  return seconds(fields[11], fields[12]);
}

/**
 * CPU seconds of PostgreSQL on this machine: every live postgres process, plus what the postmaster's
 * children that already ended used (backends of closed connections; the kernel adds a reaped child's
 * time to its parent's cutime/cstime). 0 where PostgreSQL does not run here.
 */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(entry); // undefined: it ended between the listing and the read
    if (!stat?.includes(' (postgres) ')) continue;
    const fields = fieldsOf(stat);
    total += seconds(fields[11], fields[12]);
    if (!statOf(fields[1]!)?.includes(' (postgres) ')) total += seconds(fields[13], fields[14]); // the postmaster
  }
  return total;
}
