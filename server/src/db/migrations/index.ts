import * as m0001 from './0001_foundation.ts';
import * as m0002 from './0002_logs.ts';
import * as m0003 from './0003_sending.ts';
import * as m0004 from './0004_devices.ts';
import * as m0005 from './0005_number_order.ts';
import * as m0006 from './0006_task_done_count.ts';
import * as m0007 from './0007_number_batches.ts';
import * as m0008 from './0008_report_counters.ts';
import * as m0010 from './0010_list_indexes.ts';
import * as m0011 from './0011_payments.ts';
import * as m0014 from './0014_oper_log_module.ts';
import * as m0015 from './0015_orders.ts';
import * as m0016 from './0016_order_list.ts';
import * as m0017 from './0017_refunds.ts';
import * as m0018 from './0018_sim_notify.ts';
import * as m0019 from './0019_pay_alarm_scope.ts';
import * as m0020 from './0020_log_user_names.ts';
import * as m0021 from './0021_order_write_indexes.ts';
import * as m0022 from './0022_ip_search_joined.ts';
import * as m0025 from './0025_sales_rollups.ts';
import * as m0027 from './0027_reconcile.ts';
import * as m0029 from './0029_pay_config_api_cert.ts';
import * as m0030 from './0030_pay_config_drop_cert_path.ts';
import * as m0031 from './0031_sales_month_rollups.ts';
import * as m0033 from './0033_job_runs.ts';
import * as m0034 from './0034_sales_pending.ts';
import * as m0035 from './0035_device_capabilities_window_delivery.ts';
import * as m0036 from './0036_sms_replies.ts';

// Explicit list, in order: a new migration is one new file and one line here.
export const migrations = {
  '0001_foundation': m0001,
  '0002_logs': m0002,
  '0003_sending': m0003,
  '0004_devices': m0004,
  '0005_number_order': m0005,
  '0006_task_done_count': m0006,
  '0007_number_batches': m0007,
  '0008_report_counters': m0008,
  '0010_list_indexes': m0010,
  '0011_payments': m0011,
  '0014_oper_log_module': m0014,
  '0015_orders': m0015,
  '0016_order_list': m0016,
  '0017_refunds': m0017,
  '0018_sim_notify': m0018,
  '0019_pay_alarm_scope': m0019,
  '0020_log_user_names': m0020,
  '0021_order_write_indexes': m0021,
  '0022_ip_search_joined': m0022,
  '0025_sales_rollups': m0025,
  '0027_reconcile': m0027,
  '0029_pay_config_api_cert': m0029,
  '0030_pay_config_drop_cert_path': m0030,
  '0031_sales_month_rollups': m0031,
  '0033_job_runs': m0033,
  '0034_sales_pending': m0034,
  '0035_device_capabilities_window_delivery': m0035,
  '0036_sms_replies': m0036,
};
