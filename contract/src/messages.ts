// Every user-facing text, grouped by screen: one file per group under messages/. SPEC §5, §8 and §9
// texts are kept exactly as written there; the texts the SPEC leaves out are written in the same
// style. Nothing else in the repo spells a message. A new screen adds messages/<group>.ts and a line here.
export { common } from './messages/common.ts';
export { login } from './messages/login.ts';
export { layout } from './messages/layout.ts';
export { profile } from './messages/profile.ts';
export { password } from './messages/password.ts';
export { user } from './messages/user.ts';
export { variable } from './messages/variable.ts';
export { monitor } from './messages/monitor.ts';
export { dept } from './messages/dept.ts';
export { permission } from './messages/permission.ts';
export { role } from './messages/role.ts';
export { menu } from './messages/menu.ts';
export { authcode } from './messages/authcode.ts';
export { blacklist } from './messages/blacklist.ts';
export { reply } from './messages/reply.ts';
export { statistics } from './messages/statistics.ts';
export { fill } from './messages/fill.ts';
export { task } from './messages/task.ts';
export { upload } from './messages/upload.ts';
export { device } from './messages/device.ts';
export { payConfig } from './messages/payConfig.ts';
export { terminalConfig } from './messages/terminalConfig.ts';
export { machine } from './messages/machine.ts';
export { aisle } from './messages/aisle.ts';
export { terminal } from './messages/terminal.ts';
export { order } from './messages/order.ts';
export { payAlarm } from './messages/payAlarm.ts';
export { reconcile } from './messages/reconcile.ts';
export { salesCharts } from './messages/salesCharts.ts';
export { systemMonitor } from './messages/systemMonitor.ts';
