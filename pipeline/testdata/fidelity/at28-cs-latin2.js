window.extra.l2 = "±è";
