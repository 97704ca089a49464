window.result = getComputedStyle(document.querySelector(".title")).color;
