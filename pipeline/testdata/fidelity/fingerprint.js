// What a person and the page's scripts can observe, for TestBuildKeepsWhatThePageDoes: the
// same in the source page and in the built one.
// Read once everything has loaded: stylesheets, alternate ones included, load at their own pace.
const read = () => {
const els = [...document.body.querySelectorAll("*")].filter((e) => !["SCRIPT", "STYLE", "LINK", "META"].includes(e.tagName));
window.fp = JSON.stringify({
  mode: document.compatMode,
  text: document.body.innerText,
  boxes: els.map((e) => { const r = e.getBoundingClientRect(); return [e.tagName, Math.round(r.width), Math.round(r.height), Math.round(r.x), Math.round(r.y)]; }),
  styles: els.map((e) => { const s = getComputedStyle(e); return [s.color, s.display, s.fontWeight, s.outlineStyle]; }),
  attrs: els.map((e) => [...e.attributes].map((a) => a.name + "=" + a.value).join(" ")),
  sheets: [...document.styleSheets].map((s) => [s.disabled, s.title]),
  extra: window.extra ?? null,
});
};
// The fingerprint again, after a scripted interaction (TestBuildKeepsWhatThePageDoes's act).
window.readFP = () => (read(), window.fp);
if (document.readyState === "complete") read();
else addEventListener("load", read);
