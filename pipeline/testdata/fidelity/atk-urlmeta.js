// new URL('./file', import.meta.url) names a file of the app: it must still load built. The
// image is outside <body> (its src, a data: URL once built, is not what is compared), and
// loads before the page's load event, when the fingerprint reads its width.
const img = document.createElement("img");
img.alt = "";
img.src = new URL("./red.png", import.meta.url).href;
document.documentElement.appendChild(img);
window.extra = { get width() { return img.naturalWidth; } };
