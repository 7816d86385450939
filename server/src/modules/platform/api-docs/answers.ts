import type { Refusal } from '../../../http/route-doc.ts';

/** Each refusal's meaning in the document; all answer the Failure envelope with the Chinese message. */
export const refusalTexts: Record<Refusal, string> = {
  400: '请求有误：msg 说明哪个字段或哪条业务规则（中文），不要原样重试',
  401: '未登录或会话已过期；设备：令牌无效或授权码已失效；终端：签名校验失败',
  403: '没有该操作的权限（或该文件不属于本设备）',
  404: '记录不存在或不在本账号的数据范围内',
  409: '状态冲突（名称或编号已被占用、正在处理中、订单状态不允许）',
  413: '上传的文件或请求体过大',
  415: '请求体类型不支持：须为 application/json（或表单）',
  429: '失败次数过多，msg 说明几分钟后再试',
  502: '支付网关未应答（订单已关闭），稍后再试',
  503: '数据库或 Redis 暂不可用，稍后重试',
};
