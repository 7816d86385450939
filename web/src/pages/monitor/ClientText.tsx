import { Tooltip } from 'antd';

/** The short browser / system form, the full User-Agent on hover. */
export function ClientText({ client, userAgent }: { client: string; userAgent: string }) {
  return userAgent ? <Tooltip title={userAgent}>{client}</Tooltip> : <>{client}</>;
}
