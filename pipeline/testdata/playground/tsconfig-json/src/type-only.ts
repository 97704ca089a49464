console.log('main side effect')

export class MainType {}
