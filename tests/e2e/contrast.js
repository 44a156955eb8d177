// WCAG 2.1 contrast of every visible text (and of every control's edge) against what is
// behind it: colours composited from the page down, opacity folded in, the stops of a
// gradient background each counted. Evaluated in the page by test_browser_access.py;
// returns how many texts were checked and the failures.
() => {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c || '');
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  // What is behind an element's text: its own background and its ancestors', composited.
  // (The page's own felt band sits behind the header only, which has its own colour.)
  const behind = (el) => {
    const chain = [];
    for (let n = el; n && n !== document.documentElement; n = n.parentElement) chain.unshift(n);
    let layers = [[255, 255, 255, 1]];
    for (const n of chain) {
      const s = getComputedStyle(n);
      const stops = n === document.body || s.backgroundImage === 'none' ? [] : [...s.backgroundImage.matchAll(/rgba?\([^)]+\)/g)].map((m) => parse(m[0]));
      if (stops.length) layers = stops.flatMap((stop) => layers.map((l) => over(stop, l)));
      const colour = parse(s.backgroundColor);
      if (colour && colour[3] > 0) layers = layers.map((l) => over(colour, l));
    }
    return layers;
  };
  const opacity = (el) => { let o = 1; for (let n = el; n; n = n.parentElement) o *= Number(getComputedStyle(n).opacity); return o; };
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility === 'visible'
    && !el.closest('[aria-hidden="true"], .visually-hidden, [disabled]');
  const failures = [];
  const name = (el) => `${el.tagName.toLowerCase()}.${el.className || ''}[${el.dataset.testid || ''}] "${(el.innerText || el.value || '').slice(0, 30)}"`;
  let checked = 0;
  for (const el of document.querySelectorAll('body *')) {
    if (!shown(el)) continue;
    const s = getComputedStyle(el);
    const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())
      || (['INPUT', 'SELECT'].includes(el.tagName) && el.type !== 'range');
    if (text) {
      checked += 1;
      const fg = parse(s.color);
      fg[3] *= opacity(el);
      const size = parseFloat(s.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
      const need = large ? 3 : 4.5;
      for (const bg of behind(el)) {
        const r = ratio(over(fg, bg), bg);
        if (r < need - 0.005) failures.push(`${name(el)}: text ${r.toFixed(2)} < ${need}`);
      }
    }
    // A control's edge: its own background, or else its border, against what is around it.
    // (A checkbox is drawn by the browser itself, with a 4.5:1 edge in Chromium.)
    if (el.matches('button, input:not([type=range]):not([type=checkbox]):not([type=radio]), select, summary')) {
      const around = behind(el.parentElement);
      const own = parse(s.backgroundColor);
      const border = parse(s.borderTopColor);
      const width = parseFloat(s.borderTopWidth);
      // (A text-only control, drawn without a box, is seen by its text alone.)
      const boxed = (own && own[3] > 0) || (width > 0 && border && border[3] > 0);
      for (const bg of boxed ? around : []) {
        const fill = own && own[3] > 0 ? ratio(over(own, bg), bg) : 1;
        const edge = width > 0 && border ? ratio(over(border, bg), bg) : 1;
        if (Math.max(fill, edge) < 3 - 0.005) failures.push(`${name(el)}: boundary ${Math.max(fill, edge).toFixed(2)} < 3`);
      }
    }
  }
  return { checked, failures };
}
