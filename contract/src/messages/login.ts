export const login = {
  title: '汇云运营台',
  subtitle: '无人零售支付平台 · 群发任务管理',
  accountPlaceholder: '账号',
  passwordPlaceholder: '密码',
  remember: '记住密码',
  submit: '登录',
  accountRequired: '请输入账号',
  passwordRequired: '请输入密码',
  formInvalid: '请输入用户名和密码!',
  success: '登录成功',
  badCredentials: '用户名或密码错误',
  locked: '账号已被锁定，请联系管理员',
  throttled: '登录失败次数过多，请{minutes}分钟后再试',
  /** The attempt counters cannot be read (Redis away): logins are refused rather than let through uncounted. */
  throttleUnavailable: '登录保护服务暂不可用，暂停登录，请稍后再试',
  loggedOut: '已退出登录!',
  logoutConfirm: '确定退出登录吗？',
} as const;
