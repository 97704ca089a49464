window.latin = "café © ½";
