export { InvalidSamples } from './InvalidSamples.tsx';
export { NumberFileDropzone } from './NumberFileDropzone.tsx';
export { useNumberFileUpload, type StoredNumberFile } from './useNumberFileUpload.ts';
export { NumberUploadModal } from './NumberUploadModal.tsx';
