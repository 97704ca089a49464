// import.meta read as a whole: its url is this file's, not the page's.
const { url } = import.meta;

window.extra = { ownURL: url.endsWith("atk-wholemeta.js") };
