// The front door of modules/pay/alarms: what other areas, app.ts and the tools may import from it.
export { listPayAlarms } from './queries.ts';
export { recordAlarm } from './record.ts';
export { payAlarmRoutes } from './routes.ts';
export { ThrottledWarnings } from './throttled-warnings.ts';
