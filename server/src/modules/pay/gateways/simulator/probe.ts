import { messages, type PayConfigCheckResult } from '@huiyun/contract';
import { passed, probeResult } from '../probe.ts';

/** 检测 of a 模拟网关 config: its books are this server's, nothing to reach and no key to prove. */
export async function probeSimulator(): Promise<PayConfigCheckResult> {
  return probeResult([passed(messages.payConfigCheck.checkSimulator, messages.payConfigCheck.simulatorValid)]);
}
