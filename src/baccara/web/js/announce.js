// One polite live region for the whole page: what the casino announces to screen readers
// ("Place your bets", "No more bets", "Bet accepted"), read out once each, without
// moving the focus. Any page may import announce(text).

let region = null;
let pending = null;

/** The page's one announcer: visually hidden, polite, made the first time it is needed. */
export function announcer() {
  if (region && region.isConnected) return region;
  region = document.getElementById("announcer");
  if (!region) {
    region = document.createElement("div");
    region.id = "announcer";
    region.className = "announcer";
    region.setAttribute("aria-live", "polite");
    region.setAttribute("aria-atomic", "true");
    document.body.append(region);
  }
  return region;
}

let waiting = "";

/**
 * Say `text` to screen readers. The region is emptied first and filled a moment later,
 * so the same words said twice ("Bet accepted" for two chips) are read twice. Words said
 * within that moment are not replaced by what follows: it goes after them ("Round voided
 * — your 25.00 is refunded. Place your bets", "No more bets Player's card 1: 7 of
 * Hearts"). (A caller's `keep` asks for what every text now has.)
 */
export function announce(text) {
  const live = announcer();
  live.textContent = "";
  clearTimeout(pending);
  const said = waiting ? `${waiting} ${text}` : text;
  waiting = said;
  pending = setTimeout(() => {
    live.textContent = said;
    waiting = "";
  }, 50);
}
