document.write("<p>the deferred script wrote this</p>");
window.deferWrote = document.readyState;
