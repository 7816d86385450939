import { Button, Descriptions, Skeleton } from 'antd';
import { LockOutlined } from '../../../shared/icons.tsx';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { messages, PASSWORD_URL } from '@huiyun/contract';
import { fetchProfile } from '../../../api/profile.ts';
import { getToken } from '../../../shared/session.ts';
import { Panel } from '../../../components/Panel.tsx';

const m = messages.profile;
const shown = (value: string) => value || m.none;

/** 个人中心: the operator's own account, read-only, and the way to 修改密码. */
export function ProfilePage() {
  const navigate = useNavigate();
  const profile = useQuery({ queryKey: ['profile', getToken()], queryFn: fetchProfile });
  const data = profile.data;
  return (
    <Panel
      title={m.title}
      extra={
        <Button icon={<LockOutlined />} onClick={() => navigate(PASSWORD_URL)}>
          {m.changePassword}
        </Button>
      }
    >
      {data ? (
        <Descriptions column={{ xs: 1, md: 2 }} bordered size="middle" className="profile">
          <Descriptions.Item label={m.userName}>{data.userName}</Descriptions.Item>
          <Descriptions.Item label={m.userRealName}>{shown(data.userRealName)}</Descriptions.Item>
          <Descriptions.Item label={m.userMobile}>{shown(data.userMobile)}</Descriptions.Item>
          <Descriptions.Item label={m.userEmail}>{shown(data.userEmail)}</Descriptions.Item>
          <Descriptions.Item label={m.deptName}>{shown(data.deptName)}</Descriptions.Item>
          <Descriptions.Item label={m.roleName}>{shown(data.roleName)}</Descriptions.Item>
          <Descriptions.Item label={m.lastLoginTime}>{shown(data.lastLoginTime)}</Descriptions.Item>
          <Descriptions.Item label={m.lastLoginIp}>{shown(data.lastLoginIp)}</Descriptions.Item>
        </Descriptions>
      ) : (
        <Skeleton active loading={profile.isPending} />
      )}
    </Panel>
  );
}
