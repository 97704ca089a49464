// Each entry bundles its own copy of this module: the order is kept on window.
export function mark(name) {
  (window.order ||= []).push(name);
}
