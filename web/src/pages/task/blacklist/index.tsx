import { lazy, Suspense, useState } from 'react';
import { Button } from 'antd';
import { UploadOutlined } from '../../../shared/icons.tsx';
import { blacklistSourceLabel, messages, Perm, type BlacklistEntry } from '@huiyun/contract';
import { deleteBlacklist, exportBlacklist, listBlacklist, saveBlacklist, type BlacklistFilters } from '../../../api/blacklist.ts';
import { ListPage, type ListColumn } from '../../../components/ListPage/index.ts';
import { useCurrentUser } from '../../../shared/useCurrentUser.ts';
import { useOpenedOnce } from '../../../components/useOpenedOnce.ts';
import { useCompanyOptions } from '../../../components/useCompanyOptions.ts';

// The upload dialog (drop zone, progress, result) loads the first time it opens.
const UploadBlacklistDialog = lazy(() => import('./UploadBlacklistDialog.tsx').then((m) => ({ default: m.UploadBlacklistDialog })));

const m = messages.blacklist;

// The save schema (and zod with it) loads with the dialog, not with the list.
const loadSchema = () => import('../../../api/saveSchemas.ts').then((s) => s.blacklistAdd);
const QUERY_KEY = 'blacklist';

/**
 * 黑名单 (PRODUCT §4 退订/黑名单): the company's do-not-contact numbers, skipped when numbers are
 * uploaded into a task. Search by number; add (typed) and upload (.txt) for whoever meets customers;
 * delete for administrators; export. A company column and choice only for callers keeping several lists.
 */
export function BlacklistPage() {
  const { data: me } = useCurrentUser();
  const companies = useCompanyOptions();
  const [uploading, setUploading] = useState(false);
  const uploadOpened = useOpenedOnce(uploading);

  const companyFields = companies.fields({ name: 'deptId', label: m.dept });
  const columns: ListColumn<BlacklistEntry>[] = [
    { key: 'phone', title: m.phone, width: 160 },
    ...(companies.many ? [{ key: 'deptName', title: m.dept }] : []),
    { key: 'addUser', title: m.addUser },
    { key: 'addTime', title: m.addTime, width: 180 },
    { key: 'source', title: m.source, width: 110, render: (_v, row) => blacklistSourceLabel(row.source) },
  ];

  return (
    <>
      <ListPage<BlacklistEntry, BlacklistFilters>
        queryKey={QUERY_KEY}
        rowKey="id"
        fetcher={listBlacklist}
        columns={columns}
        searchFields={[{ name: 'phone', label: m.phone }, ...companyFields]}
        edit={{
          entityName: m.entityName,
          fields: [...companyFields, { name: 'phones', label: m.phones, type: 'textarea', placeholder: m.phonesPlaceholder }],
          schema: loadSchema,
          initialValues: { deptId: me?.deptId ?? undefined },
          save: (values) => saveBlacklist(values),
          failText: m.saveFailed,
          permission: Perm.blacklistSave,
          canEdit: false,
        }}
        remove={{
          run: (keys) => deleteBlacklist(keys.map(String)),
          failText: m.deleteFailed,
          confirmText: m.confirmDelete,
          permission: Perm.blacklistDelete,
        }}
        exporter={{ run: exportBlacklist, failText: messages.common.exportFailed }}
        toolbar={[
          {
            key: 'upload',
            permission: Perm.blacklistSave,
            render: () => (
              <Button icon={<UploadOutlined />} onClick={() => setUploading(true)}>
                {m.upload}
              </Button>
            ),
          },
        ]}
      />
      {uploadOpened && (
        <Suspense fallback={null}>
          <UploadBlacklistDialog
            open={uploading}
            queryKey={QUERY_KEY}
            companies={companies}
            defaultDeptId={me?.deptId ?? undefined}
            onClose={() => setUploading(false)}
          />
        </Suspense>
      )}
    </>
  );
}
