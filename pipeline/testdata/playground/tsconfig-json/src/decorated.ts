// @ts-nocheck experimentalDecorators, from the tsconfig.json above
function mark() {
  return function (..._args: any[]) {}
}

export class Marked {
  @mark()
  method(@mark() value: string) {
    return value
  }
}
