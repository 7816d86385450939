// The device protocol (docs/device-protocol.md) and the device list reachable from 授权码列表.
export const device = {
  title: '设备列表',
  machineCode: '设备编号',
  machineName: '设备名称',
  authCode: '授权码',
  userName: '所属账号',
  status: '状态',
  online: '在线',
  offline: '离线',
  neverSeen: '未上线',
  lastSeen: '最后在线',
  sentToday: '今日发送',
  leased: '发送中',
  battery: '电量',
  signal: '信号',
  appVersion: '版本',
  activatedAt: '激活时间',
  dueNum: '剩余数量',
  dueDateStr: '到期时间',
  openDevices: '设备列表',
  backToAuthCodes: '返回授权码列表',
  loadFailed: '加载失败，请稍后再试！',

  // empty list and empty device picker: how a device gets here (issue 13 §5)
  emptyTitle: '还没有激活的设备',
  emptyStepCode: '管理员在授权码列表生成授权码，一个授权码绑定一台设备。',
  emptyStepApp: '在手机上打开发送端 App，填写服务器地址和授权码，点击激活。',
  emptyStepDone: '激活成功后设备出现在这里，新增任务时即可在“发送设备”中选择它。',
  emptyServer: '服务器地址：{url}',
  emptyProtocol: '自制设备或对接其他终端：按设备协议（仓库 docs/device-protocol.md）调用 POST /device/v1/activate；没有手机时可用模拟器 npm run device。',
  emptyAskAdmin: '还没有授权码？请联系管理员生成。',
  makeCode: '生成授权码',
  pickerEmpty: '暂无已激活的设备：在手机发送端 App 中输入授权码激活后即可选择（激活方法见 授权码列表 → 设备列表）。',

  // activation
  authCodeRequired: '请输入授权码',
  /** One answer for a code that does not exist and one bound to another device, so guesses learn nothing. */
  authCodeInvalid: '授权码无效或已被其他设备使用',
  activateThrottled: '激活失败次数过多，请{minutes}分钟后再试',
  activateBusy: '激活请求过多，请稍后重试',
  authCodeExpired: '授权码已过期',
  machineCodeRequired: '设备编号不能为空',
  machineCodeFormat: '设备编号只能包含字母、数字和 ._:-，最长64位',
  machineNameRequired: '设备名称不能为空',
  machineNameTooLong: '设备名称不能超过100个字符',
  activated: '激活成功',
  tokenInvalid: '设备未激活或令牌已失效，请重新激活',

  // pull: why there is no batch
  waitNoTask: '本设备没有分配任务',
  waitTaskPaused: '任务已暂停',
  waitTaskCompleted: '任务已完成',
  waitNoPending: '暂无待发送号码',
  waitDailyCap: '今日发送量已达上限（{limit}条）',
  waitQuotaUsedUp: '授权码剩余数量已用完，请充值',
  waitCodeExpired: '授权码已过期，请充值',

  // report
  batchIdRequired: '批次号不能为空',
  resultsRequired: '请上报发送结果',
  resultsTooMany: '一次最多上报{max}条结果',
  resultStatusInvalid: '发送结果只能是 sent 或 failed',
  reported: '上报成功',
  blockedReason: '号码在黑名单中',

  heartbeatOk: '在线',
  fileNotAssigned: '文件不属于本设备的任务',
} as const;
