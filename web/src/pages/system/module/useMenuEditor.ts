import { useMemo, useRef, useState } from 'react';
import { Form } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { fill, messages, ModuleLeaf, TOP_LEVEL_PARENT_ID, type Module, type ModuleTreeNode } from '@huiyun/contract';
import { errorText } from '../../../api/client.ts';
import { deleteModules, exportModules, fetchModule, fetchModuleTree, fetchParentChoices, saveModule } from '../../../api/menu.ts';
import { useConfirm } from '../../../components/useConfirm.ts';
import { useToast } from '../../../shared/toast.tsx';

const m = messages.menu;

export type MenuForm = {
  parentId: number;
  moduleName: string;
  moduleIcon: string;
  moduleUrl: string;
  moduleOrder: number;
  moduleNotes: string;
};

const emptyForm = (parentId: number, moduleOrder?: number): Partial<MenuForm> => ({
  parentId, moduleName: '', moduleIcon: '', moduleUrl: '', moduleOrder, moduleNotes: '',
});

function findNode(nodes: ModuleTreeNode[], id: number): ModuleTreeNode | undefined {
  for (const node of nodes) {
    if (node.moduleId === id) return node;
    const found = findNode(node.children, id);
    if (found) return found;
  }
  return undefined;
}

/** State and calls of 菜单管理: the tree, the parent choices, the form of the selected or new menu. */
export function useMenuEditor() {
  const message = useToast();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<MenuForm>();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  /** The menu the form edits; null while adding a new one. */
  const [editing, setEditing] = useState<Module | null>(null);
  const [busy, setBusy] = useState<'save' | 'delete' | 'detail' | 'export' | null>(null);
  /**
   * Which fill of the form is the operator's latest (a node clicked, 新增): a menu's detail that
   * arrives after a later one must not overwrite the form (a click on a group and 新增 at once used to
   * get the group's own values back when its detail arrived).
   */
  const formTurn = useRef(0);

  const tree = useQuery({ queryKey: ['menu-tree'], queryFn: fetchModuleTree, meta: { errorText: m.treeLoadFailed } });
  const parents = useQuery({ queryKey: ['menu-nodes'], queryFn: fetchParentChoices, meta: { errorText: m.nodesLoadFailed } });

  const parentOptions = useMemo(
    () => [
      { value: TOP_LEVEL_PARENT_ID, label: m.topLevel },
      ...(parents.data ?? []).filter((p) => p.moduleId !== editing?.moduleId).map((p) => ({ value: p.moduleId, label: p.moduleName })),
    ],
    [parents.data, editing],
  );

  const reloadAll = async () => {
    // The caller's own side menu is built from the same tree.
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['menu-tree'] }),
      queryClient.invalidateQueries({ queryKey: ['menu-nodes'] }),
      queryClient.invalidateQueries({ queryKey: ['currentUser'] }),
    ]);
  };

  const select = async (moduleId: number) => {
    const turn = ++formTurn.current;
    setSelectedId(moduleId);
    setBusy('detail');
    try {
      const module = await fetchModule(moduleId);
      if (turn !== formTurn.current) return;
      setEditing(module);
      form.resetFields();
      form.setFieldsValue({
        parentId: module.parentId, moduleName: module.moduleName, moduleIcon: module.moduleIcon,
        moduleUrl: module.moduleUrl, moduleOrder: module.moduleOrder, moduleNotes: module.moduleNotes,
      });
    } catch (error) {
      const text = errorText(error, m.detailLoadFailed);
      if (text && turn === formTurn.current) void message.error(text);
    } finally {
      if (turn === formTurn.current) setBusy(null);
    }
  };

  /** 新增: an empty form under the selected group (or beside the selected screen), ordered last. */
  const startAdd = () => {
    const selected = selectedId === null ? undefined : findNode(tree.data ?? [], selectedId);
    const parentId = !selected ? TOP_LEVEL_PARENT_ID : selected.isLeaf === ModuleLeaf.group ? selected.moduleId : selected.parentId;
    const siblings = parentId === TOP_LEVEL_PARENT_ID ? (tree.data ?? []) : (findNode(tree.data ?? [], parentId)?.children ?? []);
    const nextOrder = siblings.reduce((max, s) => Math.max(max, s.moduleOrder), 0) + 1;
    formTurn.current += 1;
    setBusy((b) => (b === 'detail' ? null : b));
    setEditing(null);
    form.resetFields();
    form.setFieldsValue(emptyForm(parentId, nextOrder));
  };

  const save = async () => {
    let values: MenuForm;
    try {
      values = await form.validateFields();
    } catch {
      return; // the field messages are showing
    }
    setBusy('save');
    try {
      const { text, moduleId } = await saveModule({ ...values, moduleNotes: values.moduleNotes ?? '', moduleId: editing?.moduleId });
      void message.success(text);
      await reloadAll();
      await select(moduleId);
    } catch (error) {
      const text = errorText(error, m.saveFailed);
      if (text) void message.error(text);
    } finally {
      setBusy(null);
    }
  };

  const remove = () => {
    if (!editing) {
      void message.warning(m.selectFirst);
      return;
    }
    const target = editing;
    confirm({
      content: fill(m.confirmDelete, { moduleName: target.moduleName }),
      cancelledText: messages.common.cancelledDelete,
      danger: true,
      onOk: async () => {
        setBusy('delete');
        try {
          void message.success(await deleteModules([target.moduleId]));
          setSelectedId(null);
          setEditing(null);
          form.resetFields();
          await reloadAll();
        } catch (error) {
          const text = errorText(error, m.deleteFailed);
          if (text) void message.error(text);
        } finally {
          setBusy(null);
        }
      },
    });
  };

  const exportAll = async () => {
    setBusy('export');
    try {
      await exportModules();
    } catch (error) {
      const text = errorText(error, messages.common.exportFailed);
      if (text) void message.error(text);
    } finally {
      setBusy(null);
    }
  };

  return { form, tree, parentOptions, selectedId, editing, busy, select, startAdd, save, remove, exportAll };
}
