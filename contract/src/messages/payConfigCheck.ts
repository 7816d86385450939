// 支付配置 → 检测: one harmless signed call with the saved keys (server/src/modules/pay-config/check.ts). Each
// failure names the field of the 支付配置 dialog to fix, by its label there (messages/payConfig.ts).
export const payConfigCheck = {
  action: '检测',
  resultTitle: '检测结果',
  failed: '检测失败，请稍后再试！',
  configRequired: '请选择要检测的支付配置',
  /** the whole answer: every check passed / one failed */
  valid: '支付配置可用：{proved}',
  invalid: '支付配置不可用：{reason}',
  failedChecks: '未通过的检测项：',
  unsupported: '该支付网关不支持检测',
  secretsUnreadable: '支付配置的密钥无法在本服务器解密，请重新填写密钥后保存',
  unreachable: '无法连接支付网关，请检查网络或稍后再试',
  refused: '支付网关拒绝了检测请求（{code}），请核对支付配置',
  keyUnreadable: '{label}格式不正确，无法读取：请检查{label}',
  // what each check is called in the result
  checkRequest: '请求签名',
  checkAnswer: '应答验签',
  checkApiCert: 'API证书',
  checkSimulator: '模拟网关',
  // 模拟网关
  simulatorValid: '模拟网关始终可用（不连接真实支付渠道）',
  // 微信支付 V3
  v3RequestValid: '商户号、商户私钥与商户证书序列号有效',
  v3SignError: '签名错误：请检查商户私钥与商户证书序列号',
  v3MchNotExists: '商户号不存在：请检查商户号',
  v3AnswerValid: '应答签名已用平台公钥验证（微信支付公钥有效）',
  v3UnknownSerial: '应答的平台公钥ID与支付配置不符：请检查平台公钥ID',
  v3AnswerBadSign: '应答签名验证失败：请检查平台公钥（微信支付公钥）',
  v3AnswerUnsigned: '支付网关的应答未带签名，无法验证平台公钥',
  v3SignTest: '微信支付发来了签名探测应答（WECHATPAY/SIGNTEST），请再检测一次',
  v3CertificatesValid: '平台证书已下载，并用 APIv3密钥 解密',
  v3ApiV3Key: '平台证书无法用 APIv3密钥 解密：请检查APIv3密钥',
  // 微信支付 V2
  v2RequestValid: '商户号、APPID与商户密钥（APIv2密钥）有效',
  v2SignError: '签名错误：请检查商户密钥（APIv2密钥）与签名方式',
  v2AppidMismatch: 'APPID与商户号不匹配：请检查APPID与商户号',
  v2AnswerBadSign: '应答签名验证失败：请检查商户密钥（APIv2密钥）',
  apiCertValid: 'API证书可以打开，属于商户号 {partner}，TLS 握手成功',
  apiCertOpenedOnly: 'API证书可以打开，属于商户号 {partner}（支付网关地址不是 HTTPS，未做 TLS 握手）',
  apiCertUnreadable: 'API证书无法打开：请检查API证书与证书密码',
  apiCertOtherMerchant: 'API证书属于商户号 {owner}，不是本配置的商户号 {partner}：请检查API证书',
  apiCertExpired: 'API证书已于 {date} 过期：请更换API证书',
  apiCertHandshake: '使用API证书的 TLS 握手失败：请检查API证书与证书密码',
  // 支付宝
  alipayRequestValid: 'APPID与应用私钥有效（支付宝接受了请求签名）',
  alipaySignError: '签名错误：请检查应用私钥与签名方式',
  alipayAppId: 'APPID无效：请检查APPID',
  alipayTimestamp: '请求时间被支付宝拒绝：请检查服务器时间',
  alipayAnswerValid: '应答签名已用支付宝公钥验证',
  alipayAnswerBadSign: '应答签名验证失败：请检查支付宝公钥',
} as const;
