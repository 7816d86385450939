// `npm start`: build the console when its build is missing or older than its sources, then serve.
import { consoleBuildIsFresh } from './web-build.ts';
import { runOrExit } from './run.ts';

if (!consoleBuildIsFresh()) {
  console.log('Building the console (web/dist is missing or stale)…');
  runOrExit('npm', ['run', 'build', '-w', 'web']);
}
await import('../server/src/main.ts');
