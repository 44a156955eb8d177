// What overflows the window, and which of the given groups of boxes overlap (each
// group a selector: the shown elements it finds, none inside another, pairwise).
(groups) => {
  const box = (e) => { const r = e.getBoundingClientRect(); return {l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height}; };
  const shown = (e) => { const s = getComputedStyle(e); const r = e.getBoundingClientRect(); return s.display !== "none" && s.visibility !== "hidden" && r.width > 0 && r.height > 0; };
  const name = (e) => e.dataset.testid || e.id || e.name || e.className || e.tagName;
  const wide = document.documentElement.scrollWidth > innerWidth;
  const overlaps = [];
  for (const selector of groups) {
    const items = [...document.querySelectorAll(selector)].filter(shown).map((e) => [name(e), box(e), e]);
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length; j++) {
        const [na, a, ea] = items[i];
        const [nb, b, eb] = items[j];
        if (ea.contains(eb) || eb.contains(ea)) continue;
        const x = Math.min(a.r, b.r) - Math.max(a.l, b.l);
        const y = Math.min(a.b, b.b) - Math.max(a.t, b.t);
        if (x > 1 && y > 1) overlaps.push(`${selector}: ${na} / ${nb}`);
      }
    }
  }
  return {wide, width: document.documentElement.scrollWidth, window: innerWidth, overlaps: overlaps.slice(0, 6)};
}
