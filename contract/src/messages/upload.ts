// Files: /upload/files, /download/file, the number upload (/sync/uploadTaskData) and the number
// export (/sync/exportTask). SPEC §5 / §8.3 / §8.4 texts are kept exactly; the others in their style.
export const upload = {
  // /upload/files
  fileRequired: '请选择要上传的文件',
  txtOnly: '请上传.txt格式的文件',
  notText: '文件内容不是文本，请上传.txt格式的文件',
  imageOnly: '请上传png、jpg、gif或webp格式的图片',
  emptyFile: '上传的文件为空',
  tooLarge: '文件大小不能超过 {max} MB',
  badKind: '不支持的文件类型',
  uploadFailed: '文件上传失败，请稍后再试！',
  uploaded: '上传成功！',
  // /download/file
  fileNotFound: '文件不存在或已被删除',
  // /sync/uploadTaskData (SPEC §8.3 / §8.4)
  taskRequired: '请先选择一条任务！',
  fileNoRequired: '请先上传号码文件',
  notNumberFile: '请上传.txt格式的号码文件',
  taskCompleted: '任务已完成，不能再上传号码',
  dataUploaded: '数据上传成功！',
  dataUploadFailed: '数据上传失败，请稍后再试！',
  // the upload result's invalid-line samples (task and do-not-contact uploads)
  invalidSamplesDownload: '下载全部示例（{count} 行）',
  invalidSamplesFileName: '无效行示例.txt',
  // /sync/exportTask
  exportTypeInvalid: '导出类型错误：1 全部，2 未发送，3 已发送',
  // operation log
  title: '文件',
  actionUpload: '上传文件',
  actionUploadNumbers: '上传号码',
  actionExport: '导出号码',
} as const;
