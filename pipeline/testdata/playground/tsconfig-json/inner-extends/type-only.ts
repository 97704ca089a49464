console.log('inner-extends side effect')

export class InnerExtendsType {}
