import type { ComponentType } from 'react';
import {
  ApartmentOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  CodeOutlined,
  ControlOutlined,
  DashboardOutlined,
  FileTextOutlined,
  InboxOutlined,
  KeyOutlined,
  LineChartOutlined,
  LockOutlined,
  LoginOutlined,
  MenuOutlined,
  MonitorOutlined,
  PayCircleOutlined,
  PieChartOutlined,
  ProfileOutlined,
  SafetyOutlined,
  ScheduleOutlined,
  SettingOutlined,
  ShopOutlined,
  StopOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UserOutlined,
  WalletOutlined,
  WifiOutlined,
} from '@ant-design/icons';

// Only the icons contract routes.ts names: a menu's moduleIcon is looked up here, never imported by name.
const icons: Record<string, ComponentType> = {
  ApartmentOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  CodeOutlined,
  ControlOutlined,
  DashboardOutlined,
  FileTextOutlined,
  InboxOutlined,
  KeyOutlined,
  LineChartOutlined,
  LockOutlined,
  LoginOutlined,
  MenuOutlined,
  MonitorOutlined,
  PayCircleOutlined,
  PieChartOutlined,
  ProfileOutlined,
  SafetyOutlined,
  ScheduleOutlined,
  SettingOutlined,
  ShopOutlined,
  StopOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UserOutlined,
  WalletOutlined,
  WifiOutlined,
};

export function hasIcon(name: string): boolean {
  return name in icons;
}

export function MenuIcon({ name }: { name: string | null | undefined }) {
  const Icon = (name && icons[name]) || AppstoreOutlined;
  return <Icon />;
}
