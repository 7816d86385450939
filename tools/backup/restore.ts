import { parseArgs } from 'node:util';
import { BackupError, restoreDataDir } from '../../server/src/infra/data-dir-backup.ts';

// npm run restore -- --from DIR --data-dir NEW: lays a backup into an empty DATA_DIR; start the server on it.

const { values } = parseArgs({ options: { from: { type: 'string' }, 'data-dir': { type: 'string' } } });
if (!values.from || !values['data-dir']) {
  console.error('usage: npm run restore -- --from DIR --data-dir NEW   (NEW must be empty or missing)');
  process.exit(2);
}
try {
  const manifest = restoreDataDir({ from: values.from, dataDir: values['data-dir'] });
  console.log(`restored the backup of ${manifest.time} (version ${manifest.version}, migration ${manifest.migration}) into ${values['data-dir']}: `
    + `${manifest.files.count} stored files; key ${manifest.key === 'included' ? 'restored' : 'NOT in the backup: put pay-secret.key into the data directory or set PAY_SECRET_KEY before starting'}`);
  console.log(`start it: DATA_DIR=${values['data-dir']} npm start`);
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(`restore refused: ${error.message}`);
  process.exit(1);
}
