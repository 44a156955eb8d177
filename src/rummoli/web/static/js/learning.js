// What helps a person follow and learn at the table, apart from the game's drawing: the
// house rules in force (and how they differ from the defaults) under the status line,
// and the guided first round (tour.js). table.js calls renderLearning after each drawing.
import { fill } from "./dom.js";
import { currentLanguage } from "./i18n.js";
import { optionsNow, rulesLine } from "./options.js";
import { renderTour } from "./tour.js";

/** ctx: {view, table, seat, redraw}. */
export function renderLearning(ctx) {
  const box = document.querySelector("#rules-in-force");
  const table = ctx.table;
  if (box && table) {
    // Drawn once the house rules' titles are known (options.js), then when they change.
    const key = optionsNow() ? `${currentLanguage()} ${JSON.stringify(table.changed || {})}` : "";
    if (key && box.dataset.drawn !== key) {
      fill(box, rulesLine(table.game, table.changed, "rules-line"));
      box.dataset.drawn = key;
    }
  }
  renderTour({ game: table ? table.game : ctx.view && ctx.view.game, rules: table ? table.rules : null, view: ctx.view, seat: ctx.seat, redraw: ctx.redraw });
}
