import { Switch } from 'antd';
import { LockStatus, messages, type User } from '@huiyun/contract';
import { lockUser } from '../../../api/user.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';

const m = messages.user;

/** The lock switch of a row: on = locked (isLock Y); the server's text shows, then the list reloads. */
export function LockSwitch({ user, disabled }: { user: User; disabled: boolean }) {
  const locker = useServerAction('user', (lock: LockStatus) => lockUser(user.userId, lock));
  return (
    <Switch
      aria-label={`${m.isLock} ${user.userName}`}
      checked={user.isLock === LockStatus.locked}
      checkedChildren={m.locked}
      unCheckedChildren={m.normal}
      loading={locker.pending}
      disabled={disabled}
      onChange={(on) => void locker.run(on ? LockStatus.locked : LockStatus.normal, m.lockFailed)}
    />
  );
}
