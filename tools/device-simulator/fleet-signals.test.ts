import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDevices } from './run-devices.ts';

// Each device follows the fleet's stop and kill through signals of its own (run-devices.ts): a kill
// must still end every call in flight, and a stop every pause.

let server: http.Server;
let url: string;
const held: http.ServerResponse[] = [];

beforeAll(async () => {
  // Takes every call and never answers it.
  server = http.createServer((_request, response) => held.push(response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of held) response.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it('a kill ends the calls in flight of every device', async () => {
  const fleet = startDevices({ server: url, codes: ['A1', 'A2', 'A3'], machinePrefix: 'signals', speed: Infinity });
  while (held.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
  fleet.kill();
  const stats = await fleet.done;
  expect(stats.active).toBe(0);
  expect(stats.refused).toBe(0);
  expect(fleet.devices.every((d) => !d.running)).toBe(true);
});
