import { afterAll, beforeAll } from 'vitest';
import type { TestApp } from './harness.ts';
import { startDeviceTestApp, type DeviceTestApp } from './devices.ts';

// The app of a device test file (startDeviceTestApp) as live bindings, set before the file's tests
// and closed after them, as terminal-fixture.ts holds the terminal tests' app.

export let t: TestApp;
export let ownerId: number;
export let otherId: number;
export let ownerToken: string;
export let adminToken: string;
export let newDevice: DeviceTestApp['newDevice'];

/** One device test app for the calling test file (the bindings above). */
export function useDeviceTestApp(): void {
  beforeAll(async () => {
    ({ t, ownerId, otherId, ownerToken, adminToken, newDevice } = await startDeviceTestApp());
  });
  afterAll(async () => t?.close());
}
