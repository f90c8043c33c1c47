// The round's result lies over its cards (the stage): a button folds it to a strip at the
// foot of the cards, headline and balance change only, so the cards can be seen; the same
// button opens it again. Each round's result comes open; nothing else on the felt moves.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const SEE = () => t("table.fold.see");
const SHOW = () => t("table.fold.show");

/** The fold button for `panel` (the result section, its data-round-id already set). */
export function foldButton(panel) {
  if (panel.dataset.foldedRound && panel.dataset.foldedRound !== panel.dataset.roundId) delete panel.dataset.foldedRound;
  const folded = Boolean(panel.dataset.foldedRound);
  panel.classList.toggle("folded", folded);
  const button = h("button", {
    type: "button", class: "result-fold", "aria-expanded": String(!folded),
    onClick: () => {
      const fold = !panel.classList.contains("folded");
      panel.classList.toggle("folded", fold);
      if (fold) panel.dataset.foldedRound = panel.dataset.roundId;
      else delete panel.dataset.foldedRound;
      button.textContent = fold ? SHOW() : SEE();
      button.setAttribute("aria-expanded", String(!fold));
    },
  }, folded ? SHOW() : SEE());
  return button;
}
