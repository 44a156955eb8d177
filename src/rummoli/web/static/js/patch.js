// A step's view from a frame's view and a patch (the server's rummoli.web.patch makes
// them: the same five keys). A dict's patch: {s: keys set, d: keys deleted, p: keys
// patched}; a list's: {n: cut to this length, i: items patched}. The value given is not
// changed: a new one is returned.
export function applyPatch(value, patch) {
  if (Array.isArray(value)) {
    const out = value.slice(0, patch.n === undefined ? value.length : patch.n);
    for (const [index, part] of Object.entries(patch.i || {})) out[Number(index)] = applyPatch(out[Number(index)], part);
    return out;
  }
  const out = { ...value };
  for (const key of patch.d || []) delete out[key];
  Object.assign(out, patch.s || {});
  for (const [key, part] of Object.entries(patch.p || {})) out[key] = applyPatch(out[key], part);
  return out;
}
