import { useEffect, useRef, useState, type Key } from 'react';
import { Button, Col, Empty, Form, Input, InputNumber, Row, Select, Space, Spin, Tree, type TreeDataNode } from 'antd';
import { DeleteOutlined, DownloadOutlined, PlusOutlined, SaveOutlined } from '../../../shared/icons.tsx';
import { fill, messages, moduleSave, Perm, type ModuleTreeNode } from '@huiyun/contract';
import { MenuIcon } from '../../../shared/icons.tsx';
import { Panel } from '../../../components/Panel.tsx';
import { useAllowedEntries } from '../../../components/useAllowedEntries.tsx';
import { zodRule } from '../../../components/FormDialog/index.ts';
import { useMenuEditor, type MenuForm } from './useMenuEditor.ts';

const m = messages.menu;

const toTreeData = (nodes: ModuleTreeNode[]): TreeDataNode[] =>
  nodes.map((node) => ({
    key: node.moduleId,
    title: node.moduleName,
    icon: <MenuIcon name={node.moduleIcon} />,
    children: node.children.length ? toTreeData(node.children) : undefined,
  }));

const placeholder = (label: string) => fill(messages.common.inputPlaceholder, { label });

/** 菜单管理 (SPEC §2.7): the module tree beside the form of the selected menu; add, save, delete. */
export function MenuPage() {
  const editor = useMenuEditor();
  const { form, tree, editing } = editor;
  const icon = Form.useWatch('moduleIcon', form);
  const toolbar = useAllowedEntries(
    [
      {
        key: 'add',
        permission: Perm.moduleSave,
        render: () => (
          <Button icon={<PlusOutlined />} onClick={editor.startAdd}>
            {messages.common.add}
          </Button>
        ),
      },
      {
        key: 'save',
        permission: Perm.moduleSave,
        render: () => (
          <Button type="primary" icon={<SaveOutlined />} loading={editor.busy === 'save'} onClick={() => void editor.save()}>
            {messages.common.save}
          </Button>
        ),
      },
      {
        key: 'delete',
        permission: Perm.moduleDelete,
        render: () => (
          <Button danger icon={<DeleteOutlined />} disabled={!editing} loading={editor.busy === 'delete'} onClick={editor.remove}>
            {messages.common.delete}
          </Button>
        ),
      },
      {
        key: 'export',
        render: () => (
          <Button icon={<DownloadOutlined />} loading={editor.busy === 'export'} onClick={() => void editor.exportAll()}>
            {messages.common.export}
          </Button>
        ),
      },
    ],
    undefined,
  );
  const [expandedKeys, setExpandedKeys] = useState<Key[]>([]);
  const knownGroups = useRef(new Set<number>());

  // Every group starts expanded, also one added later; a group the user folded stays folded.
  useEffect(() => {
    const fresh = (tree.data ?? []).filter((n) => n.children.length > 0 && !knownGroups.current.has(n.moduleId)).map((n) => n.moduleId);
    if (fresh.length === 0) return;
    fresh.forEach((id) => knownGroups.current.add(id));
    setExpandedKeys((keys) => [...keys, ...fresh]);
  }, [tree.data]);

  return (
    <Row gutter={16}>
      <Col xs={24} md={9} xl={7}>
        <Panel title={m.tree} className="menu-tree">
          <Spin spinning={tree.isFetching}>
            {tree.data && tree.data.length > 0 ? (
              <Tree
                showIcon
                blockNode
                expandedKeys={expandedKeys}
                onExpand={(keys) => setExpandedKeys(keys)}
                treeData={toTreeData(tree.data)}
                selectedKeys={editor.selectedId === null ? [] : [editor.selectedId]}
                onSelect={(keys) => keys.length > 0 && editor.select(Number(keys[0]))}
              />
            ) : (
              <Empty />
            )}
          </Spin>
        </Panel>
      </Col>
      <Col xs={24} md={15} xl={17}>
        <Panel
          title={editing ? fill(messages.common.editTitle, { name: m.entity }) : fill(messages.common.addTitle, { name: m.entity })}
          extra={
            <Space wrap className="menu-toolbar">
              {toolbar}
            </Space>
          }
        >
          <Spin spinning={editor.busy === 'detail'}>
            <Form<MenuForm> form={form} name="menu-edit" layout="vertical" style={{ maxWidth: 560 }} onFinish={() => void editor.save()}>
              <Form.Item name="parentId" label={m.parentId} required rules={[zodRule(moduleSave, 'parentId')]} validateFirst>
                <Select allowClear options={editor.parentOptions} placeholder={fill(messages.common.selectPlaceholder, { label: m.parentId })} />
              </Form.Item>
              <Form.Item name="moduleName" label={m.moduleName} required rules={[zodRule(moduleSave, 'moduleName')]} validateFirst>
                <Input placeholder={placeholder(m.moduleName)} allowClear />
              </Form.Item>
              <Form.Item name="moduleIcon" label={m.moduleIcon} required rules={[zodRule(moduleSave, 'moduleIcon')]} validateFirst>
                <Input placeholder={placeholder(m.moduleIcon)} allowClear suffix={icon ? <MenuIcon name={String(icon)} /> : null} />
              </Form.Item>
              <Form.Item name="moduleUrl" label={m.moduleUrl} required rules={[zodRule(moduleSave, 'moduleUrl')]} validateFirst>
                <Input placeholder={placeholder(m.moduleUrl)} allowClear />
              </Form.Item>
              <Form.Item name="moduleOrder" label={m.moduleOrder} required rules={[zodRule(moduleSave, 'moduleOrder')]} validateFirst>
                <InputNumber placeholder={placeholder(m.moduleOrder)} min={0} max={9999} precision={0} style={{ width: '100%' }} />
              </Form.Item>
              <Form.Item name="moduleNotes" label={m.moduleNotes} rules={[zodRule(moduleSave, 'moduleNotes')]}>
                <Input.TextArea placeholder={placeholder(m.moduleNotes)} autoSize={{ minRows: 2, maxRows: 6 }} />
              </Form.Item>
              <button type="submit" hidden aria-hidden />
            </Form>
          </Spin>
        </Panel>
      </Col>
    </Row>
  );
}
