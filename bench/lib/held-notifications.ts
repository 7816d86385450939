import http from 'node:http';
import type { SimulatedPlatform } from '../../server/src/modules/pay/gateways/index.ts';

/**
 * The bench's server child keeps the simulator's paid notifications back while told to, so a bench can
 * measure the 支付模拟 page's payments and the notifications they cause apart (bench/terminal.ts, its
 * steps). A small HTTP server of its own on a loopback port: POST /hold, then POST /release, which
 * sends the held notifications and answers once every one of them (and its acknowledgement) is done.
 */
export async function notificationControl(simulator: SimulatedPlatform): Promise<{ url: string; close: () => void }> {
  const send = simulator.options.deliver;
  let held: (() => void)[] | undefined;
  simulator.options.deliver = async (...args) => {
    if (held) await new Promise<void>((resolve) => held!.push(resolve));
    return send(...args);
  };
  const control = http.createServer((request, response) => {
    void (async () => {
      if (request.url === '/hold') held = [];
      else if (request.url === '/release') {
        const waiting = held ?? [];
        held = undefined;
        for (const go of waiting) go();
        await simulator.settled();
      }
      response.end('ok');
    })();
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const { port } = control.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => control.close() };
}
