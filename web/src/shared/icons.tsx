import type { ComponentType } from 'react';
import type { AntdIconProps } from '@ant-design/icons/lib/components/AntdIcon';
import {
  AlertOutlined as AntAlertOutlined,
  ApartmentOutlined as AntApartmentOutlined,
  AppstoreOutlined as AntAppstoreOutlined,
  ArrowLeftOutlined as AntArrowLeftOutlined,
  BarChartOutlined as AntBarChartOutlined,
  ClearOutlined as AntClearOutlined,
  CodeOutlined as AntCodeOutlined,
  ControlOutlined as AntControlOutlined,
  DashboardOutlined as AntDashboardOutlined,
  DesktopOutlined as AntDesktopOutlined,
  DeleteOutlined as AntDeleteOutlined,
  DownOutlined as AntDownOutlined,
  DownloadOutlined as AntDownloadOutlined,
  EyeInvisibleOutlined as AntEyeInvisibleOutlined,
  EyeOutlined as AntEyeOutlined,
  FileTextOutlined as AntFileTextOutlined,
  InboxOutlined as AntInboxOutlined,
  KeyOutlined as AntKeyOutlined,
  LineChartOutlined as AntLineChartOutlined,
  LockOutlined as AntLockOutlined,
  LoginOutlined as AntLoginOutlined,
  LogoutOutlined as AntLogoutOutlined,
  MenuFoldOutlined as AntMenuFoldOutlined,
  MenuOutlined as AntMenuOutlined,
  MenuUnfoldOutlined as AntMenuUnfoldOutlined,
  MessageOutlined as AntMessageOutlined,
  MobileOutlined as AntMobileOutlined,
  MonitorOutlined as AntMonitorOutlined,
  PayCircleOutlined as AntPayCircleOutlined,
  PieChartOutlined as AntPieChartOutlined,
  PlusOutlined as AntPlusOutlined,
  ProfileOutlined as AntProfileOutlined,
  QrcodeOutlined as AntQrcodeOutlined,
  ReloadOutlined as AntReloadOutlined,
  SafetyOutlined as AntSafetyOutlined,
  SaveOutlined as AntSaveOutlined,
  ScheduleOutlined as AntScheduleOutlined,
  SearchOutlined as AntSearchOutlined,
  SettingOutlined as AntSettingOutlined,
  ShopOutlined as AntShopOutlined,
  StopOutlined as AntStopOutlined,
  TeamOutlined as AntTeamOutlined,
  UnorderedListOutlined as AntUnorderedListOutlined,
  UploadOutlined as AntUploadOutlined,
  UserOutlined as AntUserOutlined,
  WalletOutlined as AntWalletOutlined,
  WifiOutlined as AntWifiOutlined,
} from '@ant-design/icons';

// The console's one source of icons: every screen imports its icons from here, never from
// @ant-design/icons (icons.test.ts checks). antd's icons announce themselves as images named in English
// ('plus', 'search'), read before the Chinese label of the button or menu item they sit in; every icon
// here is decorative instead (aria-hidden, no name): the text beside it says what it does.

type Icon = ComponentType<AntdIconProps>;

/** The icon hidden from assistive technology. */
function decorative(AntIcon: Icon): Icon {
  const Decorative = (props: AntdIconProps) => <AntIcon aria-hidden {...props} aria-label={undefined} />;
  Decorative.displayName = AntIcon.displayName;
  return Decorative;
}

export const AlertOutlined = /*#__PURE__*/ decorative(AntAlertOutlined);
export const ApartmentOutlined = /*#__PURE__*/ decorative(AntApartmentOutlined);
export const AppstoreOutlined = /*#__PURE__*/ decorative(AntAppstoreOutlined);
export const ArrowLeftOutlined = /*#__PURE__*/ decorative(AntArrowLeftOutlined);
export const BarChartOutlined = /*#__PURE__*/ decorative(AntBarChartOutlined);
export const ClearOutlined = /*#__PURE__*/ decorative(AntClearOutlined);
export const CodeOutlined = /*#__PURE__*/ decorative(AntCodeOutlined);
export const ControlOutlined = /*#__PURE__*/ decorative(AntControlOutlined);
export const DashboardOutlined = /*#__PURE__*/ decorative(AntDashboardOutlined);
export const DesktopOutlined = /*#__PURE__*/ decorative(AntDesktopOutlined);
export const DeleteOutlined = /*#__PURE__*/ decorative(AntDeleteOutlined);
export const DownOutlined = /*#__PURE__*/ decorative(AntDownOutlined);
export const DownloadOutlined = /*#__PURE__*/ decorative(AntDownloadOutlined);
export const EyeInvisibleOutlined = /*#__PURE__*/ decorative(AntEyeInvisibleOutlined);
export const EyeOutlined = /*#__PURE__*/ decorative(AntEyeOutlined);
export const FileTextOutlined = /*#__PURE__*/ decorative(AntFileTextOutlined);
export const InboxOutlined = /*#__PURE__*/ decorative(AntInboxOutlined);
export const KeyOutlined = /*#__PURE__*/ decorative(AntKeyOutlined);
export const LineChartOutlined = /*#__PURE__*/ decorative(AntLineChartOutlined);
export const LockOutlined = /*#__PURE__*/ decorative(AntLockOutlined);
export const LoginOutlined = /*#__PURE__*/ decorative(AntLoginOutlined);
export const LogoutOutlined = /*#__PURE__*/ decorative(AntLogoutOutlined);
export const MenuFoldOutlined = /*#__PURE__*/ decorative(AntMenuFoldOutlined);
export const MenuOutlined = /*#__PURE__*/ decorative(AntMenuOutlined);
export const MenuUnfoldOutlined = /*#__PURE__*/ decorative(AntMenuUnfoldOutlined);
export const MessageOutlined = /*#__PURE__*/ decorative(AntMessageOutlined);
export const MobileOutlined = /*#__PURE__*/ decorative(AntMobileOutlined);
export const MonitorOutlined = /*#__PURE__*/ decorative(AntMonitorOutlined);
export const PayCircleOutlined = /*#__PURE__*/ decorative(AntPayCircleOutlined);
export const PieChartOutlined = /*#__PURE__*/ decorative(AntPieChartOutlined);
export const PlusOutlined = /*#__PURE__*/ decorative(AntPlusOutlined);
export const ProfileOutlined = /*#__PURE__*/ decorative(AntProfileOutlined);
export const QrcodeOutlined = /*#__PURE__*/ decorative(AntQrcodeOutlined);
export const ReloadOutlined = /*#__PURE__*/ decorative(AntReloadOutlined);
export const SafetyOutlined = /*#__PURE__*/ decorative(AntSafetyOutlined);
export const SaveOutlined = /*#__PURE__*/ decorative(AntSaveOutlined);
export const ScheduleOutlined = /*#__PURE__*/ decorative(AntScheduleOutlined);
export const SearchOutlined = /*#__PURE__*/ decorative(AntSearchOutlined);
export const SettingOutlined = /*#__PURE__*/ decorative(AntSettingOutlined);
export const ShopOutlined = /*#__PURE__*/ decorative(AntShopOutlined);
export const StopOutlined = /*#__PURE__*/ decorative(AntStopOutlined);
export const TeamOutlined = /*#__PURE__*/ decorative(AntTeamOutlined);
export const UnorderedListOutlined = /*#__PURE__*/ decorative(AntUnorderedListOutlined);
export const UploadOutlined = /*#__PURE__*/ decorative(AntUploadOutlined);
export const UserOutlined = /*#__PURE__*/ decorative(AntUserOutlined);
export const WalletOutlined = /*#__PURE__*/ decorative(AntWalletOutlined);
export const WifiOutlined = /*#__PURE__*/ decorative(AntWifiOutlined);

// Only the icons contract routes.ts names: a menu's moduleIcon is looked up here, never imported by name.
const icons: Record<string, Icon> = {
  AlertOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  CodeOutlined,
  ControlOutlined,
  DashboardOutlined,
  DesktopOutlined,
  FileTextOutlined,
  InboxOutlined,
  KeyOutlined,
  LineChartOutlined,
  LockOutlined,
  LoginOutlined,
  MenuOutlined,
  MessageOutlined,
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
