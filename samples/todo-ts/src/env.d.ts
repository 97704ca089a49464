interface ImportMetaEnv {
  readonly VITE_LIST_TITLE?: string;
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}
