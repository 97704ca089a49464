(window.__SIDE_EFFECT ||= []).push('kept')
