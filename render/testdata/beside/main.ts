// Makes the URL of an image beside the page at run time, as Leaflet does for its default
// marker icon: a bundle has no file beside it, and its policy blocks the load.
const img = document.createElement("img");
img.src = "images/marker.png?v=1";
document.getElementById("root")!.append(img);
