export const user = {
  title: '用户管理',
  forceOfflineOk: '用户{userName}强制下线成功！',
  forceOfflineFailed: '用户下线失败，请稍后再试！',
  flashCacheOk: '刷新成功！',
  flashCacheFailed: '刷新失败，请稍后再试！',
  notFound: '用户不存在',
  forceOfflineConfirm: '确定将用户{userName}强制下线吗？',
} as const;
