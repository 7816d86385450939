// Where the suite's servers listen and the passwords the launcher seeds (see e2e/server.ts). Each Playwright
// worker has a server and database of its own: worker N (TEST_PARALLEL_INDEX, which a worker restarted after a
// failure keeps) talks to the server on E2E_PORT + N; e2e/server.ts runs with E2E_PORT set to that port.
/**
 * Playwright workers, and so servers: one per worker (see playwright.config.ts). Two on two cores: the suite
 * costs the same CPU with three (about 300 s), and a third browser and server on the same cores gave the
 * console's pickers less time between a journey's steps.
 */
export const E2E_WORKERS = Number(process.env.E2E_WORKERS ?? 2);
/** The first server's port; worker N's is E2E_BASE_PORT + N. */
export const E2E_BASE_PORT = Number(process.env.E2E_PORT ?? 18080);
export const E2E_PORT = E2E_BASE_PORT + Number(process.env.TEST_PARALLEL_INDEX ?? 0);
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const ADMIN = { userName: 'admin', password: 'Admin@12345' };
export const USER1 = { userName: 'user1', password: 'User@12345' };
/** The file naming the data directory of the suite's server on a port (written by e2e/server.ts). */
export const dataDirPointer = (port: number) => `${process.env.TMPDIR ?? '/tmp'}/huiyun-e2e-${port}.datadir`;
/** The file naming the loopback port the suite's server reaches WeChat Pay on (WECHATPAY_BASE_URL; e2e/real-gateway-journey.spec.ts serves its fake there). */
export const fakeWechatPortPointer = (port: number) => `${process.env.TMPDIR ?? '/tmp'}/huiyun-e2e-${port}.wechat-port`;
