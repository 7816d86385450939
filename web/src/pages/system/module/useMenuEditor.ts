import { useEffect, useMemo, useState } from 'react';
import { Form } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { fill, messages, ModuleLeaf, TOP_LEVEL_PARENT_ID, type Module, type ModuleTreeNode } from '@huiyun/contract';
import { queryKeys } from '../../../api/queryKeys.ts';
import { deleteModules, exportModules, fetchModule, fetchModuleTree, fetchParentChoices, saveModule } from '../../../api/menu.ts';
import { useConfirm } from '../../../components/useConfirm.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';
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
  /**
   * The menu whose detail is to fill the form: the operator's latest click, cleared once filled and by
   * 新增, so a detail that arrives after a later click or 新增 never overwrites the form (a click on a
   * group and 新增 at once used to get the group's own values back when its detail arrived).
   */
  const [loading, setLoading] = useState<number | null>(null);

  const tree = useQuery({ queryKey: queryKeys.options('menu', 'tree'), queryFn: fetchModuleTree, meta: { errorText: m.treeLoadFailed } });
  const parents = useQuery({ queryKey: queryKeys.options('menu', 'parents'), queryFn: fetchParentChoices, meta: { errorText: m.nodesLoadFailed } });
  // Not kept once unobserved: choosing the menu again loads it afresh.
  const detail = useQuery({
    queryKey: ['menu', 'detail', loading],
    queryFn: () => fetchModule(loading ?? 0),
    enabled: loading !== null,
    gcTime: 0,
    meta: { errorText: m.detailLoadFailed },
  });

  // A failed load is told by the query client; choosing the menu again tries again.
  useEffect(() => {
    if (detail.isError) setLoading(null);
  }, [detail.isError]);
  useEffect(() => {
    const module = detail.data;
    if (!module || detail.isFetching) return;
    setLoading(null);
    setEditing(module);
    form.resetFields();
    form.setFieldsValue({
      parentId: module.parentId, moduleName: module.moduleName, moduleIcon: module.moduleIcon,
      moduleUrl: module.moduleUrl, moduleOrder: module.moduleOrder, moduleNotes: module.moduleNotes,
    });
  }, [detail.data, detail.isFetching, form]);

  const parentOptions = useMemo(
    () => [
      { value: TOP_LEVEL_PARENT_ID, label: m.topLevel },
      ...(parents.data ?? []).filter((p) => p.moduleId !== editing?.moduleId).map((p) => ({ value: p.moduleId, label: p.moduleName })),
    ],
    [parents.data, editing],
  );

  const select = (moduleId: number) => {
    setSelectedId(moduleId);
    setLoading(moduleId);
  };

  // The caller's own side menu is built from the same tree (the menu entity's lists reload with every action).
  const reloadSideMenu = () => void queryClient.invalidateQueries({ queryKey: ['currentUser'] });

  const saver = useServerAction('menu', saveModule, {
    successText: (answer) => answer.text,
    onDone: (answer) => {
      reloadSideMenu();
      select(answer.moduleId);
    },
  });
  const deleter = useServerAction('menu', (moduleId: number) => deleteModules([moduleId]), {
    onDone: () => {
      setSelectedId(null);
      setEditing(null);
      form.resetFields();
      reloadSideMenu();
    },
  });
  const exporter = useServerAction(null, exportModules);

  /** 新增: an empty form under the selected group (or beside the selected screen), ordered last. */
  const startAdd = () => {
    const selected = selectedId === null ? undefined : findNode(tree.data ?? [], selectedId);
    const parentId = !selected ? TOP_LEVEL_PARENT_ID : selected.isLeaf === ModuleLeaf.group ? selected.moduleId : selected.parentId;
    const siblings = parentId === TOP_LEVEL_PARENT_ID ? (tree.data ?? []) : (findNode(tree.data ?? [], parentId)?.children ?? []);
    const nextOrder = siblings.reduce((max, s) => Math.max(max, s.moduleOrder), 0) + 1;
    setLoading(null);
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
    await saver.run({ ...values, moduleNotes: values.moduleNotes ?? '', moduleId: editing?.moduleId }, m.saveFailed);
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
        await deleter.run(target.moduleId, m.deleteFailed);
      },
    });
  };

  const exportAll = () => exporter.run(undefined, messages.common.exportFailed);

  const busy = saver.pending ? 'save' : deleter.pending ? 'delete' : exporter.pending ? 'export' : detail.isFetching ? 'detail' : null;

  return { form, tree, parentOptions, selectedId, editing, busy, select, startAdd, save, remove, exportAll };
}
