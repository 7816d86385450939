// The terminal protocol (docs/terminal-protocol.md), the order state machine and the 支付模拟 page.
export const terminal = {
  // signature refusals
  unsigned: '请求未签名：缺少 X-Machine-No、X-Timestamp、X-Nonce 或 X-Signature',
  badTimestamp: '时间戳无效或与服务器时间相差超过 300 秒，请校准机器时钟',
  badNonce: '随机串（X-Nonce）须为 8 到 64 位字母、数字、下划线或短横线',
  replayed: '重复的请求（随机串已使用过），已拒绝',
  unknownMachine: '机器不存在或签名错误',
  machineDisabled: '机器已停用，不能交易',
  badSignature: '机器不存在或签名错误',
  badJson: '请求体不是有效的 JSON',
  // create
  aisleNo: '货道编号',
  payType: '支付方式',
  aisleMissing: '货道 {aisleNo} 不存在',
  aisleDisabled: '货道 {aisleNo} 已停用',
  aisleEmpty: '货道 {aisleNo} 已售罄',
  aisleNoPrice: '货道 {aisleNo} 未设置价格',
  noPayConfig: '本机没有开启该支付方式的终端支付配置',
  payConfigMissing: '终端支付配置指向的支付配置不存在',
  gatewayUnknown: '支付配置的网关 {gateway} 暂不支持',
  gatewayFailed: '支付网关暂不可用，请稍后再试',
  /** A key or certificate of the 支付配置 ({label}) does not load on the server: the order never reached the gateway. */
  payConfigKeyBroken: '支付配置的{label}无法使用，本机暂不能用该支付方式，请联系运营方检查支付配置',
  dispenseInProgress: '本机有一笔订单正在出货，请等出货结果上报后再下单',
  orderInProgress: '本机有一笔订单正在进行，请稍后再试',
  // status / dispense
  orderNo: '订单号',
  orderMissing: '订单不存在或不属于本机',
  dispenseConflict: '订单已上报为{status}，不能再改为另一结果',
  dispenseNotPaid: '订单状态为{status}，未支付的订单不能出货',
  dispenseTimedOut: '出货结果超时未上报，按出货失败自动退款',
  stockAlreadyZero: '货道库存已为 0，出货成功未再扣减',
  // heartbeat
  aisles: '货道库存',
  // state machine
  events: { issueQr: '生成支付二维码', paid: '支付成功', dispensed: '出货成功', dispenseFailed: '出货失败', close: '关闭订单', markLatePayment: '记录关闭后到账', startRefund: '发起退款', refundSucceeded: '退款成功', refundFailed: '退款失败' },
  transitionRefused: '订单状态为{status}，不能{event}',
  // paid notification
  notifyBadSignature: '支付通知签名错误',
  notifyMismatch: '支付通知与订单不符（{field}）',
  notifyUnknownOrder: '支付通知的订单不存在',
  notifyBadConfigId: '支付通知地址中的支付配置序号无效',
  refundNotifyUnknown: '退款通知的退款单不存在',
  // 支付模拟 page
  simTitle: '支付模拟',
  simAmount: '支付金额',
  simGoods: '商品',
  simOrderNo: '订单号',
  simPay: '支付成功',
  simCancel: '取消',
  simPaid: '支付成功，商户将收到支付通知',
  simCancelled: '已取消支付',
  simClosed: '订单已关闭，不能支付',
  simAlreadyPaid: '该订单已支付',
  simExpired: '订单已过期，不能支付',
  simMissing: '支付链接无效或已失效',
  simNote: '这是模拟网关，不会产生真实扣款',
} as const;
