// The page's words, gettext style: the English text is the key, so a message with no
// translation falls back to English (never to a code name), and the Python side's
// tools (Babel's JavaScript extractor, keywords `_`, `ngettext`, `pgettext`) find every
// message in these sources.
//
//   _("Bet {chips}", {chips: 3})
//   ngettext("{n} chip", "{n} chips", n)          // {n} is filled in with n
//   pgettext("suit", "Hearts")
//
// Placeholders are `{name}`; numbers are formatted for the page's language.
// This first version speaks English only; the catalogues arrive with issue 13's web phase.

let language = "en";

/** The language the page is shown in (a BCP 47 code such as "en", "fr", "ru"). */
export function currentLanguage() {
  return language;
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => {
    if (!(key in params)) return whole;
    const value = params[key];
    return typeof value === "number" ? value.toLocaleString(language) : String(value);
  });
}

/** A message, translated and filled in. */
export function _(message, params) {
  return fill(message, params);
}

/** A message with a context (the same English word meaning two things). */
export function pgettext(context, message, params) {
  return fill(message, params);
}

/** A message that depends on a count: `n` chooses the plural form and fills `{n}`. */
export function ngettext(singular, plural, n, params) {
  const form = n === 1 ? singular : plural;
  return fill(form, { n, ...(params || {}) });
}
