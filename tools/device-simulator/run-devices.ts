import { setMaxListeners } from 'node:events';
import os from 'node:os';
import { DeviceClient, type RetryPolicy } from './device-client.ts';
import { SimulatedDevice, type DeviceBehaviour } from './simulated-device.ts';
import { newStats, type FleetStats } from './stats.ts';

// A fleet of simulated devices, for `npm run device`, tests and benchmarks. One authorization code
// activates one device, so the fleet takes one code per device; machine codes are stable per index
// (`<prefix>-<i>`), so a second run re-activates the same devices instead of adding new ones.

export type FleetOptions = Partial<DeviceBehaviour> & {
  server: string;
  codes: string[];
  /** How many devices; the first `count` codes are used. Default: one per code. */
  count?: number;
  /** Machine codes are `<machinePrefix>-<i>`, i from 1. Default `sim-<hostname>`. */
  machinePrefix?: string;
  /** Stop once every running device has been idle (IDLE_REASONS) for idleMs and no late report is due. */
  untilIdle?: boolean;
  idleMs?: number;
  durationMs?: number;
  retry?: RetryPolicy;
};

export type Fleet = {
  stats: FleetStats;
  devices: SimulatedDevice[];
  /** Stops cleanly: devices report what they sent, then end. Late reports not yet due are dropped. */
  stop: () => void;
  /** Ends in-flight calls too (a second Ctrl-C). */
  kill: () => void;
  done: Promise<FleetStats>;
};

export const DEFAULT_BEHAVIOUR: Omit<DeviceBehaviour, 'random'> = {
  speed: 1, failRate: 0, undeliveredRate: 0.05, duplicateRate: 0.02, lateRate: 0.01, reportEvery: 10, waitFloorMs: 1000,
};
const DEFAULT_IDLE_MS = 5000;
const WATCH_EVERY_MS = 100;

/** `sim-<hostname>` with the hostname cut to what a machineCode allows (A-Z a-z 0-9 . _ : -, ≤ 64). */
export function defaultMachinePrefix(hostname = os.hostname()): string {
  return `sim-${hostname.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 48) || 'host'}`;
}

export class FleetOptionError extends Error {}

export function startDevices(options: FleetOptions): Fleet {
  const count = options.count ?? options.codes.length;
  if (!Number.isInteger(count) || count < 1) throw new FleetOptionError('the device count must be a whole number ≥ 1');
  if (options.codes.length < count) {
    throw new FleetOptionError(`${count} devices need ${count} authorization codes (one code activates one device); got ${options.codes.length}`);
  }
  const behaviour: DeviceBehaviour = { ...DEFAULT_BEHAVIOUR, random: Math.random, ...definedOnly(options) };
  const prefix = options.machinePrefix ?? defaultMachinePrefix();
  const stats = newStats(count);
  const stopping = new AbortController();
  const killing = new AbortController();

  const devices = options.codes.slice(0, count).map((authCode, i) => {
    // Each device follows the fleet's signals through its own: every call and pause adds a listener to
    // the signal it is given, and adding one to a signal shared by 500 devices walks all of theirs (a
    // quarter of the fleet's CPU at speed max).
    const [stopSignal, killSignal] = [AbortSignal.any([stopping.signal]), AbortSignal.any([killing.signal])];
    // Late reports waiting for their lease's end each listen too.
    setMaxListeners(0, stopSignal, killSignal);
    const client = new DeviceClient(options.server, {
      retry: options.retry,
      signal: killSignal,
      onAnswer: (call, ms) => {
        if (call === 'pull') stats.pullMs.push(ms);
        else if (call === 'report') stats.reportMs.push(ms);
      },
      onRetry: (call, reason) => {
        stats.retries += 1;
        stats.lastError = `${call}: ${reason} (retrying)`;
      },
    });
    const seat = { index: i + 1, authCode: authCode.trim(), machineCode: `${prefix}-${i + 1}`, machineName: `模拟设备 ${i + 1}` };
    return new SimulatedDevice(seat, client, behaviour, stats, stopSignal);
  });

  const stop = () => stopping.abort();
  const kill = () => {
    stopping.abort();
    killing.abort();
  };
  const timers: NodeJS.Timeout[] = [];
  if (options.durationMs !== undefined) timers.push(setTimeout(stop, options.durationMs));
  if (options.untilIdle) {
    const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    timers.push(setInterval(() => {
      const running = devices.filter((d) => d.running);
      const now = Date.now();
      if (running.length > 0 && running.every((d) => d.idleSince !== undefined && now - d.idleSince >= idleMs && d.lateInFlight === 0)) stop();
    }, WATCH_EVERY_MS));
  }

  const done = (async () => {
    await Promise.all(devices.map((d) => d.run()));
    await Promise.all(devices.map((d) => d.lateReportsDone()));
    for (const timer of timers) clearTimeout(timer);
    stats.endedAt = Date.now();
    return stats;
  })();
  return { stats, devices, stop, kill, done };
}

/** Runs the fleet to its end (idle, duration or stop) and answers what it did. */
export function runDevices(options: FleetOptions): Promise<FleetStats> {
  return startDevices(options).done;
}

function definedOnly(options: FleetOptions): Partial<DeviceBehaviour> {
  const keys = ['speed', 'failRate', 'undeliveredRate', 'duplicateRate', 'lateRate', 'reportEvery', 'waitFloorMs', 'random'] as const;
  return Object.fromEntries(keys.filter((k) => options[k] !== undefined).map((k) => [k, options[k]]));
}
