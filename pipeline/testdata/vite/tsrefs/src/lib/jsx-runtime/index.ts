// A JSX runtime of the app's own, named by jsxImportSource in tsconfig.app.json.
export const jsx = (type: string, props: Record<string, unknown>) => ({ type, props, runtime: "the app's" });
export const jsxs = jsx;
export const Fragment = "fragment";
