import '@pg/dyn-css-pkg'
