// 回复记录 (/task/reply) and the device protocol's replies (POST /device/v1/replies, docs/device-protocol.md
// "Replies"): what the phones received, and the numbers a 退订 keyword put on the company's 黑名单.
export const reply = {
  title: '回复记录',
  // columns and filters
  receivedAt: '时间',
  phone: '号码',
  content: '内容',
  device: '设备',
  task: '任务',
  unsubscribed: '退订',
  userName: '所属账号',
  dateRange: '时间范围',
  beginDate: '开始日期',
  endDate: '结束日期',
  unsubscribedOnly: '仅退订',
  yes: '是',
  no: '否',
  all: '全部',
  loadFailed: '加载失败，请稍后再试！',
  emptyTitle: '还没有收到回复',
  emptyHint: '发送设备收到的短信回复会出现在这里；回复退订关键词（系统环境变量“退订关键词”）的号码会自动加入本公司黑名单。',

  // filters refused
  phoneSearchInvalid: '请输入正确的号码',
  startInvalid: '开始日期格式不正确',
  endInvalid: '结束日期格式不正确',
  dateOrder: '开始日期不能晚于结束日期',

  // the device protocol
  repliesRequired: '请上报收到的回复',
  repliesTooMany: '一次最多上报{max}条回复',
  messageIdInvalid: '回复的消息编号不能为空，最长64位',
  replyPhoneRequired: '回复的号码不能为空',
  receivedAtInvalid: '回复的接收时间不正确（毫秒时间戳）',
  replied: '上报成功',

  // the 系统环境变量 holding the keywords
  keywordsLabel: '退订关键词',
} as const;
