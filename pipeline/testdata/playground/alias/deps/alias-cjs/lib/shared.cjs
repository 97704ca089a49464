'use strict'
exports.isFunction = (v) => typeof v === 'function'
