import { useEffect, useState } from 'react';
import { Menu, type MenuProps } from 'antd';
import { Link } from 'react-router';
import type { MenuNode } from '@huiyun/contract';
import { MenuIcon } from '../../shared/icons.tsx';

type Item = Required<MenuProps>['items'][number];

function toItems(nodes: MenuNode[]): Item[] {
  return [...nodes]
    .sort((a, b) => a.moduleOrder - b.moduleOrder)
    .map((node): Item =>
      node.children?.length
        ? { key: `group-${node.moduleId}`, icon: <MenuIcon name={node.moduleIcon} />, label: node.moduleName, children: toItems(node.children) }
        : { key: node.moduleUrl, icon: <MenuIcon name={node.moduleIcon} />, label: <Link to={node.moduleUrl}>{node.moduleName}</Link> },
    );
}

/** The key of the group holding url. */
function groupKeyOf(nodes: MenuNode[], url: string | undefined): string | null {
  const group = url ? nodes.find((n) => n.children?.some((c) => c.moduleUrl === url)) : undefined;
  return group ? `group-${group.moduleId}` : null;
}

type Props = { menus: MenuNode[]; currentUrl: string | undefined; collapsed: boolean };

/** The side menu, built from the user's menu tree (GET /sync/currentUser → menus). */
export function SideMenu({ menus, currentUrl, collapsed }: Props) {
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  const currentGroup = groupKeyOf(menus, currentUrl);

  // The group of the screen shown opens (also once the menu arrives after the first render).
  useEffect(() => {
    if (currentGroup) setOpenKeys((keys) => (keys.includes(currentGroup) ? keys : [...keys, currentGroup]));
  }, [currentGroup]);

  return (
    <Menu
      theme="dark"
      mode="inline"
      items={toItems(menus)}
      selectedKeys={currentUrl ? [currentUrl] : []}
      // A collapsed menu shows groups as pop-ups; keep the open state for when it expands again.
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
    />
  );
}
