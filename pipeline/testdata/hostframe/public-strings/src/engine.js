// A game engine's image source, as excalibur's ImageSource: it loads its path when asked.
export class ImageSource {
  constructor(path) {
    this.path = path;
  }
  load() {
    const img = new Image();
    img.src = this.path;
    return img.decode().then(() => img);
  }
}
