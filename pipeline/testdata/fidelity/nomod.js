window.late = "ran";
