// 黑名单 (/task/blacklist, PRODUCT §4 退订/黑名单): a company's do-not-contact numbers. Written in the
// style of SPEC §5 / §8; the upload hint is the task screen's (task.uploadHint), not repeated here.
export const blacklist = {
  title: '黑名单',
  entityName: '黑名单号码',
  // columns and fields
  phone: '号码',
  dept: '所属公司',
  addUser: '添加人',
  addTime: '添加时间',
  source: '来源',
  sourceManual: '手动添加',
  sourceUpload: '上传号码',
  sourceReply: '回复退订',
  phones: '号码',
  phonesPlaceholder: '每行一个号码，也可用逗号、空格或分号分隔；+86/86 前缀会自动去掉',
  // buttons and dialogs
  upload: '上传号码',
  uploadTitle: '上传黑名单号码',
  uploadResult: '上传结果',
  resultAdded: '新增号码',
  resultDuplicates: '重复号码',
  resultInvalid: '无效号码',
  resultInvalidSamples: '无效行示例',
  confirmDelete: '确定将选中的号码移出黑名单吗？移出后，再上传这些号码时不再跳过。',
  // validation
  phonesRequired: '请输入号码',
  phonesTooLong: '一次最多输入{max}个字符，号码较多时请上传文件',
  phonesInvalid: '以下号码格式不正确：{numbers}',
  phonesInvalidMore: '{numbers} 等{count}个',
  phoneSearchInvalid: '请输入正确的号码',
  deptRequired: '请选择所属公司',
  deptNotFound: '公司不存在或已被删除',
  idsRequired: '请选择要删除的号码',
  // answers
  added: '保存成功！新增{added}个号码，重复{duplicates}个',
  uploaded: '数据上传成功！新增{added}个号码，重复{duplicates}个，无效{invalid}个',
  deleted: '已删除{count}个号码!',
  saveFailed: '保存失败，请稍后再试！',
  uploadFailed: '数据上传失败，请稍后再试！',
  deleteFailed: '删除失败，请稍后再试！',
  loadFailed: '加载失败，请稍后再试！',
  // operation log
  actionAdd: '添加号码',
  actionUpload: '上传号码',
  actionDelete: '删除号码',
} as const;
