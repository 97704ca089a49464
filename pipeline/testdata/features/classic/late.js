window.order.push("deferred " + document.readyState);
