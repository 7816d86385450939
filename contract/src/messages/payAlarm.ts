// 支付告警 (/pay/Alarm): every text the screen and the server show. The kinds' labels are here too;
// their stored names are PayAlarmKind in enums.ts.
export const payAlarm = {
  title: '支付告警',
  createTime: '时间',
  kind: '类型',
  kindFilter: '告警类型',
  orderNo: '订单号',
  machineNo: '终端号',
  deptName: '公司',
  dept: '公司',
  detail: '详情',
  timeRange: '时间范围',
  beginDate: '开始日期',
  endDate: '结束日期',
  all: '全部',
  /** The company of an alarm whose order was not found: only the super administrator sees these. */
  noDept: '—',
  // the kinds (modules/order/service.ts and refund.ts write them)
  kindNotifyMismatch: '通知与订单不符',
  kindAmountMismatch: '查询金额不符',
  kindConfigMismatch: '支付配置不符',
  kindLatePayment: '关闭后到账',
  kindAutoRefundFailed: '自动退款失败',
  // 详情 of each kind, written with the alarm (modules/order/service.ts, refund.ts); amounts in yuan
  detailQueryAmount: '网关查询到支付 {paid} 元，订单金额 {order} 元，订单未改为已支付',
  detailConfig: '通知来自支付网关 {gateway}，与订单的支付配置（ID {configId}）不符',
  detailNotifyAmount: '通知金额 {paid} 元，订单金额 {order} 元',
  detailNotifyField: '通知的{field}与订单不符',
  notifyFieldOrderNo: '订单号',
  notifyFieldMchId: '商户号',
  notifyFieldAppId: '应用ID',
  detailLatePayment: '订单超时关闭后收到支付（交易号 {transId}），已标记自动退款',
  detailAutoRefundFailed: '退款单 {refundNo} 失败：{reason}',
  // errors (each names its field)
  kindInvalid: '告警类型不正确',
  orderNoInvalid: '订单号最多64位，且不能包含控制字符',
  machineNoInvalid: '终端号只能包含字母、数字和-，最多32位',
  deptInvalid: '公司不正确',
  startInvalid: '开始日期格式应为YYYY-MM-DD',
  endInvalid: '结束日期格式应为YYYY-MM-DD',
  dateOrder: '开始日期不能晚于结束日期',
  loadFailed: '支付告警加载失败，请稍后再试！',
} as const;
