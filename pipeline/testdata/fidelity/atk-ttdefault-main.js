document.getElementById("lazy").insertAdjacentHTML("afterend", "<p id=made>made</p>");
window.extra = { get log() { return window.ttLog; } };
