/** 个人中心: the signed-in operator's own account, read-only. */
export const profile = {
  title: '个人中心',
  userName: '账号',
  userRealName: '姓名',
  userMobile: '手机号',
  userEmail: '邮箱',
  deptName: '所属公司',
  roleName: '角色',
  lastLoginTime: '上次登录时间',
  lastLoginIp: '上次登录地址',
  none: '-',
  changePassword: '修改密码',
  loadFailed: '个人信息加载失败，请稍后再试！',
} as const;
