// A sending device for the suite: the simulator's protocol client (tools/device-simulator), so a spec
// can activate a code, pull batches and report results the way the phone app does.
import type { DeviceActivation, DeviceBatch, DeviceCapability } from '@huiyun/contract';
import { DeviceClient, type DeliveryBody, type HeartbeatBody, type ReportBody } from '../tools/device-simulator/device-client.ts';
import { BASE_URL } from './env.ts';

/** Network trouble is retried briefly; a refusal (4xx) fails the spec at once. */
const RETRY = { firstDelayMs: 100, maxDelayMs: 1000 };

export class TestDevice {
  readonly activation: DeviceActivation;
  private readonly client: DeviceClient;

  private constructor(client: DeviceClient, activation: DeviceActivation) {
    this.client = client;
    this.activation = activation;
  }

  /** Activates the code for this machine (a new token each time; the previous one stops working). */
  /** `capabilities` as the device declares them (absent: it can send everything). */
  static async activate(authCode: string, machineCode: string, machineName: string, capabilities?: DeviceCapability[]): Promise<TestDevice> {
    const client = new DeviceClient(BASE_URL, { retry: RETRY });
    return new TestDevice(client, await client.activate({ authCode, machineCode, machineName, capabilities }));
  }

  get machineCode() {
    return this.activation.machineCode;
  }

  heartbeat(status: HeartbeatBody = {}) {
    return this.client.heartbeat(status);
  }

  pull() {
    return this.client.pull();
  }

  /** The next batch; fails with the wait reason when the server has none for this device. */
  async pullBatch(): Promise<DeviceBatch> {
    const answer = await this.pull();
    if (!answer.batch) throw new Error(`no batch: ${answer.wait.reason} ${answer.wait.message}`);
    return answer.batch;
  }

  report(batchId: string, results: ReportBody['results']) {
    return this.client.report({ batchId, results });
  }

  delivery(results: DeliveryBody['results']) {
    return this.client.delivery({ results });
  }
}

/** The reportable items of a batch (the test phone's copies are sent but never reported). */
export function reportable(batch: DeviceBatch): { id: number; phone: string }[] {
  return batch.items.flatMap((item) => (item.test || item.id === null ? [] : [{ id: item.id, phone: item.phone }]));
}
