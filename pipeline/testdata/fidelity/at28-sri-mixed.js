window.extra.mixed = "ran";
