import { it } from 'vitest';
import { createTestDatabase } from './test/test-database.ts';
import { startTestApp } from './test/harness.ts';
import { migrateToLatest } from './db/migrate.ts';
it('times', async () => {
  for (let i = 0; i < 3; i++) {
    let t0 = performance.now(); const cpu0 = process.cpuUsage();
    const d = await createTestDatabase();
    const t1 = performance.now();
    await migrateToLatest(d.db);
    const t2 = performance.now(); const cpu = process.cpuUsage(cpu0);
    await d.db.destroy(); await d.drop();
    const t3 = performance.now();
    console.log(`create ${(t1-t0).toFixed(0)} migrate ${(t2-t1).toFixed(0)} drop ${(t3-t2).toFixed(0)} cpu ${(cpu.user+cpu.system)/1000|0}ms`);
  }
  for (let i = 0; i < 2; i++) {
    const t0 = performance.now(); const cpu0 = process.cpuUsage();
    const a = await startTestApp();
    const t1 = performance.now(); const cpu = process.cpuUsage(cpu0);
    await a.close();
    console.log(`startTestApp ${(t1-t0).toFixed(0)} cpu ${(cpu.user+cpu.system)/1000|0} close ${(performance.now()-t1).toFixed(0)}`);
  }
}, 120000);
