import { Breadcrumb, Button, Dropdown, Space, theme, type MenuProps } from 'antd';
import { DownOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined, UserOutlined } from '../../shared/icons.tsx';
import { useNavigate } from 'react-router';
import { messages, PASSWORD_URL, PROFILE_URL } from '@huiyun/contract';
import { useConfirm } from '../../components/useConfirm.ts';
import { useLogout } from '../useSignOut.ts';

const m = messages.layout;

type Props = {
  collapsed: boolean;
  onToggle: () => void;
  crumbs: string[];
  displayName: string;
};

/** Collapse toggle, breadcrumb (group / screen) and the account dropdown (设置, 个人中心, 退出). */
export function TopBar({ collapsed, onToggle, crumbs, displayName }: Props) {
  const navigate = useNavigate();
  const confirm = useConfirm();
  const logout = useLogout();
  const { token } = theme.useToken();

  const items: MenuProps['items'] = [
    // 设置 is where the operator changes the password; 个人中心 shows the account itself.
    { key: 'settings', icon: <SettingOutlined />, label: m.settings },
    { key: 'profile', icon: <UserOutlined />, label: m.profile },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: m.logout, danger: true },
  ];
  const onMenuClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'logout') {
      confirm({ content: messages.login.logoutConfirm, cancelledText: messages.common.cancelled, onOk: logout });
    } else {
      navigate(key === 'profile' ? PROFILE_URL : PASSWORD_URL);
    }
  };

  return (
    <div
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 16,
        height: '100%',
        paddingInline: 16,
        background: token.colorBgContainer,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      <Button
        type="text"
        aria-label={collapsed ? m.expandMenu : m.collapseMenu}
        icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={onToggle}
      />
      <Breadcrumb items={crumbs.map((title) => ({ title }))} style={{ flex: 1 }} />
      <Dropdown menu={{ items, onClick: onMenuClick }} placement="bottomRight" trigger={['click']}>
        <Button type="text" data-testid="account-menu">
          <Space>
            <UserOutlined />
            {displayName}
            <DownOutlined />
          </Space>
        </Button>
      </Dropdown>
    </div>
  );
}
