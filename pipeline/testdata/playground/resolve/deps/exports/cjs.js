exports.msg = '[failure] require'
