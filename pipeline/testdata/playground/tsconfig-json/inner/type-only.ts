console.log('inner side effect')

export class InnerType {}
