// `npm start`: build the console when its build is missing or older than its sources, then serve.
import { ensureConsoleBuild } from './web-build.ts';

ensureConsoleBuild();
await import('../server/src/main.ts');
