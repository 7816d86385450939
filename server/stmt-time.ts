import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { loginLogListQuery, userListQuery } from '@huiyun/contract';
import { connectDatabase } from './src/db/connect.ts';
import { listUsers } from './src/modules/user/queries.ts';
import { listLoginLogs } from './src/modules/monitor/queries.ts';
const file = process.argv[2]!;
const captured: { sql: string; parameters: readonly unknown[] }[] = [];
let capturing = false;
const db = connectDatabase({ kind: 'sqlite', file }, { log: (e: any) => { if (capturing && e.level === 'query') captured.push(e.query); } });
const cases: Record<string, () => Promise<unknown>> = {
  wangfang7: () => listUsers(db, 'all', userListQuery.parse({ limit: 10, page: 1, userName: 'wangfang7' })),
  m8888: () => listUsers(db, 'all', userListQuery.parse({ limit: 10, page: 1, userMobile: '8888' })),
  zhang: () => listUsers(db, 'all', userListQuery.parse({ limit: 10, page: 1, userName: 'zhang' })),
  page1: () => listUsers(db, 'all', userListQuery.parse({ limit: 10, page: 1 })),
  ip: () => listLoginLogs(db, 'all', loginLogListQuery.parse({ limit: 10, page: 1, ip: '10.3.7' })),
};
const raw = new DatabaseSync(file, { readOnly: true });
for (const [name, run] of Object.entries(cases)) {
  captured.length = 0; capturing = false;
  await run(); capturing = true; await run(); capturing = false;
  console.log(`== ${name}`);
  for (const q of captured) {
    const st = raw.prepare(q.sql);
    const ps = q.parameters as SQLInputValue[];
    for (let i = 0; i < 200; i++) st.all(...ps);
    const n = 2000; const t0 = performance.now();
    for (let i = 0; i < n; i++) st.all(...ps);
    const us = ((performance.now() - t0) * 1000) / n;
    console.log(`${us.toFixed(1).padStart(7)} µs  ${q.sql.replace(/\s+/g, ' ').slice(0, 700)}  ${JSON.stringify(q.parameters).slice(0, 120)}`);
  }
}
await db.destroy();
