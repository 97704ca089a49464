// A JSX runtime of the test's own: an element is its type and props.
export const jsx = (type, props) => ({ type, props });
export const jsxs = jsx;
export const Fragment = "fragment";
