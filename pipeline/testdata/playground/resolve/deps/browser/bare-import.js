import msg from '@pg/r-browser-bare-fail'
export default msg
