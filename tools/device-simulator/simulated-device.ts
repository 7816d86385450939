import {
  ALL_CAPABILITIES, DEVICE_HEARTBEAT_SECONDS, DEVICE_REPORT_MAX, DeviceWaitReason, type DeviceBatch, type DeviceWaitReason as WaitReason,
} from '@huiyun/contract';
import { DeviceApiError, pause, StoppedError, type DeliveryBody, type DeviceClient, type ReportBody } from './device-client.ts';
import { countReport, type FleetStats } from './stats.ts';

// One simulated sending device following the loop of docs/device-protocol.md: activate, pull, send
// the batch's items one interval apart, report as it goes, heartbeat, wait when told to. On purpose,
// now and then, it repeats a report or holds one back until its lease has ended, so the server's
// idempotency and late-report rules get exercised. It declares every capability at activation (it
// simulates every message type), and after each report sends the delivery receipts of what it reported
// sent (a share undelivered), now and then twice, as a phone's delivery events come.

export type DeviceBehaviour = {
  /** 1 real time, 10 ten times faster, Infinity no waiting between messages. */
  speed: number;
  /** Each number fails with this probability (the server retries it up to DEVICE_MAX_ATTEMPTS). */
  failRate: number;
  /** Each number reported sent gets an undelivered receipt with this probability, a delivered one otherwise. */
  undeliveredRate: number;
  /** Each report (and each delivery report) is sent a second time with this probability. */
  duplicateRate: number;
  /** The last report of a batch is held until its lease has ended, with this probability. */
  lateRate: number;
  /** Results per report while a batch is sent; 0 reports once, at the end of the batch. */
  reportEvery: number;
  /** The shortest pause after a wait answer, whatever the speed (no hammering at speed max). */
  waitFloorMs: number;
  random: () => number;
};

export type DeviceSeat = { index: number; authCode: string; machineCode: string; machineName: string };

/** Waits that only an operator (or tomorrow) ends: a device answered one of these has nothing to do. */
export const IDLE_REASONS: ReadonlySet<WaitReason> = new Set([
  DeviceWaitReason.taskCompleted, DeviceWaitReason.noTask, DeviceWaitReason.taskPaused,
  DeviceWaitReason.quotaUsedUp, DeviceWaitReason.codeExpired, DeviceWaitReason.dailyCap,
  DeviceWaitReason.unsupportedType, DeviceWaitReason.outsideWindow,
]);

const HEARTBEAT_MS = DEVICE_HEARTBEAT_SECONDS * 1000;
/** A late report goes this long after the lease's end, so the server surely sees the lease as over. */
const LATE_MARGIN_MS = 1000;
const FAIL_REASONS = ['RESULT_ERROR_GENERIC_FAILURE', 'RESULT_ERROR_NO_SERVICE', 'RESULT_ERROR_RADIO_OFF'];
const UNDELIVERED_REASONS = ['Delivery result: 用户关机', 'Delivery result: 空号', 'Delivery result: 停机'];

export class SimulatedDevice {
  readonly seat: DeviceSeat;
  private readonly client: DeviceClient;
  private readonly behaviour: DeviceBehaviour;
  private readonly stats: FleetStats;
  /** Ends the loop: no new batch, pauses cut short, what was sent still reported. */
  private readonly stop: AbortSignal;
  running = false;
  /** Since when every pull answered a wait of IDLE_REASONS; undefined while there is work. */
  idleSince: number | undefined;
  /** Late reports scheduled and not yet answered. */
  lateInFlight = 0;
  private readonly late = new Set<Promise<void>>();
  private nextHeartbeat = 0;
  /** Server clock minus ours (from heartbeats), to time late reports against leaseUntil. */
  private clockOffset = 0;

  constructor(seat: DeviceSeat, client: DeviceClient, behaviour: DeviceBehaviour, stats: FleetStats, stop: AbortSignal) {
    this.seat = seat;
    this.client = client;
    this.behaviour = behaviour;
    this.stats = stats;
    this.stop = stop;
  }

  async run(): Promise<void> {
    if (!(await this.activate())) return;
    this.running = true;
    this.stats.active += 1;
    try {
      while (!this.stop.aborted) {
        await this.heartbeatIfDue();
        const pulled = await this.withSession(() => this.client.pull(this.stop));
        if (pulled.batch) {
          this.idleSince = undefined;
          await this.send(pulled.batch);
          continue;
        }
        const { reason, retryAfterSeconds } = pulled.wait;
        this.stats.waits[reason] = (this.stats.waits[reason] ?? 0) + 1;
        if (IDLE_REASONS.has(reason)) this.idleSince ??= Date.now();
        else this.idleSince = undefined;
        await pause(Math.max(this.behaviour.waitFloorMs, this.scaled(retryAfterSeconds)), this.stop);
      }
    } catch (error) {
      if (!(error instanceof StoppedError)) this.fail(error);
    } finally {
      this.running = false;
      this.stats.active -= 1;
    }
  }

  /** Resolves when the late reports already scheduled have been answered (or given up at a stop). */
  async lateReportsDone(): Promise<void> {
    while (this.late.size > 0) await Promise.all(this.late);
  }

  private async activate(): Promise<boolean> {
    try {
      await this.client.activate(
        { authCode: this.seat.authCode, machineCode: this.seat.machineCode, machineName: this.seat.machineName, capabilities: ALL_CAPABILITIES },
        this.stop,
      );
      return true;
    } catch (error) {
      if (error instanceof StoppedError) return false;
      this.stats.refused += 1;
      this.stats.lastError = `${this.seat.machineCode} (${this.seat.authCode}): ${(error as Error).message}`;
      return false;
    }
  }

  /** A call with the device token; after a 401 (token replaced, code deleted) the device activates again once. */
  private async withSession<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof DeviceApiError) || error.status !== 401) throw error;
      if (!(await this.activate())) throw error;
      return call();
    }
  }

  private heartbeatDue(): boolean {
    return Date.now() >= this.nextHeartbeat;
  }

  private async heartbeatIfDue(): Promise<void> {
    const now = Date.now();
    if (now < this.nextHeartbeat) return;
    this.nextHeartbeat = now + (Number.isFinite(this.behaviour.speed) ? HEARTBEAT_MS / this.behaviour.speed : HEARTBEAT_MS);
    const random = this.behaviour.random;
    const sentAt = Date.now();
    const { serverTime } = await this.withSession(() =>
      this.client.heartbeat({ battery: 20 + Math.floor(random() * 81), signal: 1 + Math.floor(random() * 5), appVersion: 'simulator' }, this.stop),
    );
    this.clockOffset = serverTime - (sentAt + Date.now()) / 2;
    this.stats.heartbeats += 1;
  }

  /** Sends the items one interval apart and reports as it goes; a stop cuts it short after reporting what was sent. */
  private async send(batch: DeviceBatch): Promise<void> {
    this.stats.batches += 1;
    const { random, failRate, reportEvery } = this.behaviour;
    const holdLast = random() < this.behaviour.lateRate;
    let queue: ReportBody['results'] = [];
    try {
      const interval = this.scaled(batch.intervalSeconds);
      for (const [i, item] of batch.items.entries()) {
        // At speed max nothing is awaited per item unless a heartbeat is due (a million items a run).
        if (i > 0) {
          if (interval > 0) await pause(interval, this.stop);
          else if (this.stop.aborted) throw new StoppedError();
        }
        if (this.heartbeatDue()) await this.heartbeatIfDue();
        if (item.test || item.id === null) continue;
        this.stats.handedOut += 1;
        queue.push(random() < failRate
          ? { id: item.id, status: 'failed', reason: FAIL_REASONS[Math.floor(random() * FAIL_REASONS.length)] }
          : { id: item.id, status: 'sent' });
        if ((reportEvery > 0 && queue.length >= reportEvery) || queue.length >= DEVICE_REPORT_MAX) {
          if (i === batch.items.length - 1 && holdLast) break;
          await this.report({ batchId: batch.batchId, results: queue });
          queue = [];
        }
      }
    } catch (error) {
      if (!(error instanceof StoppedError)) throw error;
      if (queue.length > 0) await this.report({ batchId: batch.batchId, results: queue });
      return;
    }
    if (queue.length === 0) return;
    if (holdLast) this.reportLate({ batchId: batch.batchId, results: queue }, batch.leaseUntil);
    else await this.report({ batchId: batch.batchId, results: queue });
  }

  /** A refused report (400) is counted and dropped; a device that cannot activate again stops. */
  private async report(body: ReportBody): Promise<void> {
    let answer;
    try {
      answer = await this.withSession(() => this.client.report(body));
    } catch (error) {
      if (!(error instanceof DeviceApiError) || error.status === 401) throw error;
      this.fail(error);
      return;
    }
    countReport(this.stats, answer);
    if (this.behaviour.random() < this.behaviour.duplicateRate) {
      const again = await this.withSession(() => this.client.report(body));
      this.stats.duplicateReports += 1;
      this.stats.ignored += again.ignored;
      this.stats.duplicatesApplied += again.sent + again.failed + again.retrying;
    }
    await this.sendReceipts(body);
  }

  /**
   * The delivery receipts of the numbers a report said were sent (the server ignores those it did not
   * take as sent by this device), sometimes twice, as a phone sends one event per part of a long message.
   */
  private async sendReceipts(report: ReportBody): Promise<void> {
    const { random, undeliveredRate, duplicateRate } = this.behaviour;
    const results: DeliveryBody['results'] = report.results.filter((r) => r.status === 'sent').map((r) => (random() < undeliveredRate
      ? { id: r.id, status: 'undelivered', reason: UNDELIVERED_REASONS[Math.floor(random() * UNDELIVERED_REASONS.length)] }
      : { id: r.id, status: 'delivered' }));
    if (results.length === 0) return;
    for (let times = random() < duplicateRate ? 2 : 1; times > 0; times--) {
      let answer;
      try {
        answer = await this.withSession(() => this.client.delivery({ results }));
      } catch (error) {
        if (!(error instanceof DeviceApiError) || error.status === 401) throw error;
        this.fail(error);
        return;
      }
      this.stats.deliveryReports += 1;
      this.stats.delivered += answer.delivered;
      this.stats.undelivered += answer.undelivered;
      this.stats.deliveryIgnored += answer.ignored;
    }
  }

  /** The report after the lease's end: applied if nobody took the numbers since, ignored otherwise. */
  private reportLate(body: ReportBody, leaseUntil: number): void {
    this.lateInFlight += 1;
    const due = leaseUntil - this.clockOffset + LATE_MARGIN_MS - Date.now();
    const sending = pause(due, this.stop)
      .then(async () => {
        this.stats.lateReports += 1;
        await this.report(body);
      })
      .catch((error: unknown) => {
        if (!(error instanceof StoppedError)) this.fail(error);
      })
      .finally(() => {
        this.lateInFlight -= 1;
        this.late.delete(sending);
      });
    this.late.add(sending);
  }

  private scaled(seconds: number): number {
    return Number.isFinite(this.behaviour.speed) ? (seconds * 1000) / this.behaviour.speed : 0;
  }

  private fail(error: unknown): void {
    this.stats.errors += 1;
    this.stats.lastError = `${this.seat.machineCode}: ${(error as Error).message}`;
  }
}
