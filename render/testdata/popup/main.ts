// Opens a window that loads a page at once, and one that would go elsewhere two seconds
// later (a refresh written into it): render blames the first's request on this page, and
// closes both with it, so that the second never lands on the next page rendered.
window.open("https://popup.example/now", "_blank");
const later = window.open("", "_blank");
later?.document.write('<meta http-equiv="refresh" content="2;url=https://popup.example/later">');
later?.document.close();
document.getElementById("root")!.textContent = "opened";
