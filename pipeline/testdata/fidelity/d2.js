window.order.push("d2 " + document.readyState + " " + typeof fromD1 + " " + (document.getElementById("last") ? "parsed" : "not parsed"));
