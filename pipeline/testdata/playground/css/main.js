import './sass.scss'
import './less.less'
import './stylus.styl'
import sassMod from './mod.module.scss'
import lessMod from './mod.module.less'
import stylMod from './mod.module.styl'

document.querySelector('.modules-sass').classList.add(sassMod['apply-color'])
document.querySelector('.modules-less').classList.add(lessMod['apply-color'])
document.querySelector('.modules-stylus').classList.add(stylMod['apply-color'])
