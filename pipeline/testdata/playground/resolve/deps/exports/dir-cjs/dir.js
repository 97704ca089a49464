exports.msg = '[failure]'
