window.__ran = (window.__ran || []).concat('nested')
