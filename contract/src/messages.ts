// Every user-facing text, grouped by screen. SPEC §5, §8 and §9 texts are kept exactly as written there;
// the texts the SPEC leaves out are written in the same style. Nothing else in the repo spells a message.

export const common = {
  cancelled: '已取消',
  cancelledDelete: '已取消删除',
  cancelledClear: '已取消清除',
  confirmTitle: '提示',
  confirmDelete: '确定删除选中的数据吗？',
  selectRowsFirst: '请先选择要操作的数据',
  dataSaved: '数据保存成功！',
  dataDeleted: '数据已删除!',
  saveFailed: '保存失败，请稍后再试！',
  deleteFailed: '数据删除失败，请稍后再试！',
  loadFailed: '加载失败，请稍后再试！',
  saved: '保存成功！',
  deleted: '已删除!',
  operationOk: '操作成功!',
  operationFailed: '操作失败，请稍后再试！',
  // list pages and dialogs (web)
  search: '查询',
  reset: '重置',
  add: '新增',
  edit: '编辑',
  delete: '删除',
  actions: '操作',
  ok: '确定',
  cancel: '取消',
  save: '保存',
  totalItems: '共 {total} 条',
  addTitle: '新增{name}',
  editTitle: '编辑{name}',
  editUser: '修改人',
  editTime: '修改时间',
  inputPlaceholder: '请输入{label}',
  selectPlaceholder: '请选择{label}',
  // server-side refusals
  serverBusy: '系统繁忙，请稍后再试！',
  badRequestBody: '请求数据格式错误，请检查后重试',
  unsupportedMediaType: '不支持的请求数据类型',
  bodyTooLarge: '请求数据过大',
  badParameter: '参数格式错误',
  idsRequired: '请选择要删除的数据',
  notFoundApi: '请求的接口不存在',
  notFoundRecord: '数据不存在或已被删除',
  forbidden: '没有权限执行此操作',
  outOfScope: '无权操作该公司的数据',
  // operation-log actions shared by many screens
  actionSave: '保存',
  actionDelete: '删除',
  actionForceOffline: '强制下线',
  actionRefreshCache: '刷新缓存',
  loginRequired: '请先登录',
  sessionExpired: '登录已失效，请重新登录',
  tooManyRequests: '请求过于频繁，请稍后再试',
} as const;

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
  loggedOut: '已退出登录!',
  logoutConfirm: '确定退出登录吗？',
} as const;

export const layout = {
  settings: '设置',
  profile: '个人中心',
  logout: '退出',
  home: '首页',
  forbiddenTitle: '403',
  forbidden: '抱歉，您没有访问该页面的权限',
  notFoundTitle: '404',
  notFound: '抱歉，您访问的页面不存在',
  backHome: '返回首页',
  comingSoon: '该页面将在后续版本中上线',
  expandMenu: '展开菜单',
  collapseMenu: '收起菜单',
  loadingUser: '正在加载用户信息…',
  userLoadFailed: '用户信息加载失败，请刷新页面重试',
  retry: '重试',
} as const;

export const password = {
  title: '修改密码',
  oldRequired: '请输入旧密码',
  newRequired: '请输入新密码',
  confirmRequired: '请输入确认密码',
  tooShort: '新密码长度不能少于6位',
  tooLong: '新密码长度不能超过64位',
  mismatch: '两次输入的新密码不一致',
  oldWrong: '旧密码不正确',
  sameAsOld: '新密码不能与旧密码相同',
  saved: '保存成功！',
  saveFailed: '保存失败，请稍后再试！',
  oldLabel: '旧密码',
  newLabel: '新密码',
  confirmLabel: '确认密码',
  submit: '保存',
} as const;

export const user = {
  title: '用户管理',
  forceOfflineOk: '用户{userName}强制下线成功！',
  forceOfflineFailed: '用户下线失败，请稍后再试！',
  flashCacheOk: '刷新成功！',
  flashCacheFailed: '刷新失败，请稍后再试！',
  notFound: '用户不存在',
  forceOfflineConfirm: '确定将用户{userName}强制下线吗？',
} as const;

export const variable = {
  title: '系统环境变量',
  varLable: '变量描述',
  varName: '变量名',
  varValue: '变量值',
  varLableRequired: '请输入变量描述',
  varNameRequired: '请输入变量名',
  varValueRequired: '请输入变量值',
  varNameFormat: '变量名只能包含字母、数字、下划线、点和中划线',
  tooLong: '输入内容过长',
  varNameTaken: '变量名已存在',
  saved: '系统环境变量保存成功！',
  deleted: '系统环境变量已删除！',
  saveFailed: '系统环境变量保存失败，请稍后再试！',
  deleteFailed: '系统环境变量删除失败，请稍后再试！',
  loadFailed: '系统环境变量加载失败，请稍后再试！',
} as const;

/** Replaces `{name}` placeholders: fill(user.forceOfflineOk, { userName: 'admin' }). */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}
