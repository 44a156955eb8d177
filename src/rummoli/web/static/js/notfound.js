// The page for a wrong address: its texts (marked data-i18n in 404.html) in the page's
// language, translated by i18n.js when it loads, and the language switch.
import { languageSwitch } from "./i18n.js";

document.querySelector("[data-testid=not-found] .panel").prepend(languageSwitch());
