exports.seen = __STRINGIFIED__
