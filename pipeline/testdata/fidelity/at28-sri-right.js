window.extra.right = "ran";
