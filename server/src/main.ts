import { ConfigError, loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { startLogRetention } from './db/log-retention.ts';
import { paymentRuntime } from './modules/order/runtime.ts';
import { startOrderSweeper, type OrderSweeper } from './modules/order/sweeper.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const { app, ctx } = await buildApp(config);
  let retention: { stop: () => Promise<void> } | undefined;
  let orderSweeper: OrderSweeper | undefined;
  const shutdown = async (signal: string) => {
    app.log.info(`${signal}: shutting down`);
    await retention?.stop();
    await orderSweeper?.stop();
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  // In the background once the server answers: the first sweep of a long-unswept log may take a while.
  retention = startLogRetention(ctx.db, {
    days: config.logRetentionDays,
    onSwept: (deleted) => { if (deleted.sys_oper_log + deleted.sys_login_log > 0) app.log.info({ deleted }, `log retention: deleted entries older than ${config.logRetentionDays} days`); },
    onError: (error) => app.log.error({ err: error }, 'log retention sweep failed'),
  });
  // Unpaid orders past their time: asked at the gateway, then paid or closed; automatic refunds and
  // refunds left under way by a crash (modules/order/sweeper.ts).
  const payments = paymentRuntime(ctx);
  void payments.simulator.resume().then((n) => { if (n > 0) app.log.info(`simulator gateway: ${n} unacknowledged paid notifications sent again`); }, (error) => app.log.error({ err: error }, 'simulator gateway: resuming notifications failed'));
  orderSweeper = startOrderSweeper(ctx, payments, {
    log: app.log,
    onSwept: (c) => { if (c.claimed + c.dispenseTimeouts + c.autoRefunds + c.refundsClaimed > 0) app.log.info({ swept: c }, 'order sweep'); },
    onError: (error) => app.log.error({ err: error }, 'order sweep failed'),
  });
  app.log.info(`汇云运营台 listening on http://${config.host}:${config.port} (database: ${config.databaseUrl ? 'PostgreSQL' : 'SQLite'}, sessions: ${config.redisUrl ? 'Redis' : 'database'})`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
