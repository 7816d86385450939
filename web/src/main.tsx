// First: zod parses without `Function` (the console's CSP has no 'unsafe-eval') before any schema is built.
import '@huiyun/contract/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
