export const dom = {
  put(el, m) {
    el.innerHTML = m;
  },
  run(el, m) {
    this.put(el, m);
  },
};
