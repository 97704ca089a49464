// Shows its content 350 ms after it loads, as React 19 reveals what a Suspense boundary
// waited for at least 300 ms after its fallback: a screenshot must show the content.
setTimeout(() => {
  document.documentElement.style.background = "rgb(200, 0, 0)";
}, 350);
