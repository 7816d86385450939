import { Tag } from 'antd';
import { labelOf, LogResult, logResultOptions } from '@huiyun/contract';

/** 成功 / 失败 of a log entry. */
export function ResultTag({ value }: { value: LogResult }) {
  return <Tag color={value === LogResult.success ? 'success' : 'error'}>{labelOf(logResultOptions, value)}</Tag>;
}
