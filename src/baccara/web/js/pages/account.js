// The player's account: loss limits per day, week and month (and any raise still waiting
// its 24 hours), the reality check, time played and the net result today, and
// self-exclusion — all from GET /api/me/protections; the server enforces every one.
// A limit of 0.00 is asked about first: it stops all play, and lifting it waits a day.

import { ApiError, get, post, put } from "../api.js";
import { openModal } from "../dialog.js";
import { dateTime, duration, h, money, parseMoney, replace, signed } from "../dom.js";
import { signInPanel } from "../signins.js";

const PERIODS = [
  ["day", "Day", "the last 24 hours"],
  ["week", "Week", "the last 7 days"],
  ["month", "Month", "the last 30 days"],
];
const PERIOD_WORD = { day: "daily", week: "weekly", month: "monthly" };
const EXCLUSION_DAYS = [
  [1, "1 day"], [7, "7 days"], [30, "30 days"], [90, "90 days"], [180, "180 days"], [365, "1 year"], [1825, "5 years"],
];
const REALITY_MINUTES = [5, 600];

const failure = (error) => (error instanceof ApiError ? error.message : "The casino cannot be reached; try again.");

/** What a pending change will do, in words: "200.00 from 6 Apr 2026, 14:05". */
export function pendingText(pending) {
  if (!pending) return "";
  const what = pending.loss_limit_cents === null ? "No limit" : money(pending.loss_limit_cents);
  return `${what} from ${dateTime(pending.effective_at)}`;
}

export function mount(main) {
  let stopped = false;
  let state = null;
  const ui = {
    today: h("dl", { class: "facts today", "aria-busy": "true" }),
    limits: h("tbody", {}),
    limitMessage: h("p", { class: "form-message", id: "limit-message", role: "status" }),
    realityNow: h("p", { id: "reality-now" }),
    realityMessage: h("p", { class: "form-message", id: "reality-message", role: "status" }),
    exclusion: h("div", { class: "exclusion" }),
  };

  // --- the limit form ---------------------------------------------------------------

  const period = h("select", { id: "limit-period", name: "period" },
    PERIODS.map(([id, name, span]) => h("option", { value: id }, `${name} (${span})`)));
  const amount = h("input", {
    id: "limit-amount", name: "amount", inputmode: "decimal", autocomplete: "off", placeholder: "50.00",
    "aria-describedby": "limit-hint limit-message",
  });
  const limitForm = h("form", { class: "stack-form", novalidate: true, onSubmit: (event) => {
    event.preventDefault();
    const cents = parseMoney(amount.value);
    if (cents === null) {
      say(ui.limitMessage, "Enter the most you allow yourself to lose, such as 50.00.", "fail");
      amount.focus();
      return;
    }
    setLimit(period.value, cents);
  } },
  h("div", { class: "field-row" },
    h("div", { class: "field" }, h("label", { for: "limit-period" }, "Period"), period),
    h("div", { class: "field" }, h("label", { for: "limit-amount" }, "Loss limit"), amount)),
  h("small", { id: "limit-hint" }, "A lower limit applies at once; a higher one, or none, only after 24 hours."),
  h("div", { class: "buttons" },
    h("button", { type: "submit", class: "primary" }, "Save limit"),
    h("button", { type: "button", onClick: () => setLimit(period.value, null) }, "Remove limit")),
  ui.limitMessage);

  function setLimit(which, cents) {
    if (cents === 0) confirmZero(which);
    else saveLimit(which, cents, false);
  }

  /** A limit of 0.00 stops all play at once, and lifting it waits 24 hours: ask first. */
  function confirmZero(which) {
    const word = PERIOD_WORD[which];
    const { close } = openModal({
      id: "zero-limit-confirm",
      className: "modal-warning",
      title: `Set a ${word} loss limit of 0.00?`,
      body: [
        h("p", {}, "A limit of 0.00 stops all play from now: no table takes a bet from you."),
        h("p", { class: "strong" }, "Raising or removing it again waits 24 hours."),
      ],
      actions: [
        h("button", { type: "button", class: "danger", onClick: () => {
          close();
          saveLimit(which, 0, true);
        } }, "Yes, set 0.00"),
        h("button", { type: "button", onClick: () => {
          close();
          say(ui.limitMessage, `Nothing changed: your ${word} limit is as it was.`, "done");
        } }, "Cancel"),
      ],
      onDismiss: () => say(ui.limitMessage, `Nothing changed: your ${word} limit is as it was.`, "done"),
    });
  }

  async function saveLimit(which, cents, confirm) {
    const before = state ? state.limits[which].loss_limit_cents : null;
    try {
      const body = { period: which, loss_limit_cents: cents };
      if (confirm) body.confirm = true;
      const answer = await put("/api/me/limits", body);
      await load();
      const [text, kind] = changeText(which, cents, before, answer);
      say(ui.limitMessage, text, kind);
      amount.value = "";
    } catch (error) {
      say(ui.limitMessage, failure(error), "fail");
    }
  }

  /** What a change of limit did, from the server's answer: what applies now, what later, and the waiting change it cancelled. */
  function changeText(which, cents, before, answer) {
    const word = PERIOD_WORD[which];
    const now = state.limits[which];
    const inForce = answer.in_force_cents;
    const cancelled = answer.cancelled
      ? ` The change that was waiting (${pendingText(answer.cancelled)}) is cancelled.`
      : "";
    if (now.pending && Math.abs(now.pending.effective_at - answer.effective_at) < 1) {
      const until = inForce === null ? " Until then you have no limit." : ` Until then your ${word} limit stays ${money(inForce)}.`;
      const change = cents === null ? `your ${word} limit is removed on` : `your ${word} limit becomes ${money(cents)} on`;
      return [`${cents === null ? "Removing" : "Raising"} a limit waits 24 hours: ${change} ${dateTime(answer.effective_at)}.${until}${cancelled}`, "wait"];
    }
    if (cents === null) return [`You have no ${word} loss limit.${cancelled}`, "done"];
    if (cents === 0) return [`Your ${word} loss limit is 0.00 from now: no bets until you raise it, which waits 24 hours.${cancelled}`, "done"];
    if (answer.cancelled || (before !== null && cents < before)) {
      return [`Lowering a limit applies at once: your ${word} loss limit is now ${money(cents)}.${cancelled}`, "done"];
    }
    return [`Your ${word} loss limit is ${money(cents)}, from now.`, "done"];
  }

  // --- the reality check ------------------------------------------------------------

  const minutes = h("input", {
    id: "reality-minutes", name: "minutes", type: "number", min: REALITY_MINUTES[0], max: REALITY_MINUTES[1], step: 1,
    inputmode: "numeric", "aria-describedby": "reality-hint reality-message",
  });
  const realityForm = h("form", { class: "stack-form", novalidate: true, onSubmit: (event) => {
    event.preventDefault();
    const value = Number(minutes.value);
    if (!Number.isInteger(value) || value < REALITY_MINUTES[0] || value > REALITY_MINUTES[1]) {
      say(ui.realityMessage, `Enter a whole number of minutes from ${REALITY_MINUTES[0]} to ${REALITY_MINUTES[1]}.`, "fail");
      minutes.focus();
      return;
    }
    setReality(value);
  } },
  h("div", { class: "field" }, h("label", { for: "reality-minutes" }, "Remind me every (minutes)"), minutes),
  h("small", { id: "reality-hint" }, `${REALITY_MINUTES[0]} to ${REALITY_MINUTES[1]} minutes of play.`),
  h("div", { class: "buttons" },
    h("button", { type: "submit", class: "primary" }, "Save reminder"),
    h("button", { type: "button", onClick: () => setReality(null) }, "Turn reminders off")),
  ui.realityMessage);

  async function setReality(value) {
    try {
      const answer = await put("/api/me/reality-check", { minutes: value });
      await load();
      say(ui.realityMessage, answer.minutes
        ? `Every ${answer.minutes} minutes of play the table stops to show how long you have played and your result, until you choose to go on.`
        : "Reality checks are off.", "done");
    } catch (error) {
      say(ui.realityMessage, failure(error), "fail");
    }
  }

  // --- self-exclusion ---------------------------------------------------------------

  function confirmExclusion(days, label) {
    const { close } = openModal({
      id: "exclusion-confirm",
      className: "modal-warning",
      title: `Exclude yourself for ${label}?`,
      body: [
        h("p", {}, `For ${label} from now you will not be able to place a bet or take a seat at any table.`),
        h("p", { class: "strong" }, "It cannot be lifted early — not by you, and not by the casino."),
        h("p", { class: "quiet" }, "You can still sign in, see your balance and your rounds."),
      ],
      actions: [
        h("button", { type: "button", class: "danger", onClick: async () => {
          close();
          try {
            await post("/api/me/self-exclusion", { days });
            await load();
          } catch (error) {
            replace(ui.exclusion, h("p", { class: "fail", role: "alert" }, failure(error)));
          }
        } }, `Yes, exclude me for ${label}`),
        h("button", { type: "button", onClick: () => close() }, "Cancel"),
      ],
    });
  }

  function drawExclusion() {
    const until = state.self_excluded_until;
    if (until) {
      replace(ui.exclusion,
        h("p", { class: "excluded", id: "excluded-until", "data-until": String(until) },
          "You have excluded yourself from play until ", h("strong", {}, dateTime(until)), "."),
        h("p", { class: "quiet" }, "It cannot be lifted early. Until then no table takes your bets or seats you; your balance and rounds stay yours to see."));
      return;
    }
    const days = h("select", { id: "exclusion-days", name: "days" },
      EXCLUSION_DAYS.map(([n, label]) => h("option", { value: String(n), selected: n === 30 }, label)));
    replace(ui.exclusion,
      h("p", {}, "Need a break? Exclude yourself from every table for a while. Once set it cannot be lifted early."),
      h("form", { class: "inline-form", onSubmit: (event) => {
        event.preventDefault();
        const chosen = EXCLUSION_DAYS.find(([n]) => String(n) === days.value);
        confirmExclusion(chosen[0], chosen[1]);
      } },
      h("label", { for: "exclusion-days" }, "Exclude me for"), days,
      h("button", { type: "submit", class: "danger" }, "Exclude me…")));
  }

  // --- drawing ----------------------------------------------------------------------

  function drawToday() {
    const s = state.session;
    ui.today.removeAttribute("aria-busy");
    replace(ui.today,
      h("div", {}, h("dt", {}, "Time played today"), h("dd", { id: "played-today", "data-seconds": String(state.time_played_today_seconds) }, duration(state.time_played_today_seconds))),
      h("div", {}, h("dt", {}, "Net result today"), h("dd", { id: "net-today", "data-cents": String(state.net_today_cents), class: state.net_today_cents < 0 ? "down" : state.net_today_cents > 0 ? "up" : null }, signed(state.net_today_cents))),
      h("div", {}, h("dt", {}, "Playing now"), h("dd", { id: "session-now", "data-ends-at": s ? String(s.ends_at) : "" },
        s ? `${duration(s.minutes * 60)} since your first bet · ${signed(s.net_cents)}` : "no session: one starts with your next bet")),
      h("div", {}, h("dt", {}, "Reality check"), h("dd", {}, state.reality_check_minutes ? `every ${state.reality_check_minutes} min` : "off")));
  }

  function drawLimits() {
    replace(ui.limits, PERIODS.map(([id, name, span]) => {
      const row = state.limits[id];
      const limit = row.loss_limit_cents;
      return h("tr", { "data-period": id },
        h("th", { scope: "row" }, name, h("small", {}, span)),
        h("td", { class: "limit" }, limit === null ? "none" : money(limit)),
        h("td", { class: ["net", row.net_loss_cents > 0 ? "down" : row.net_loss_cents < 0 ? "up" : null] }, signed(-row.net_loss_cents)),
        h("td", { class: "room" }, row.room_cents === null ? "—" : money(row.room_cents)),
        h("td", { class: "pending", "data-effective-at": row.pending ? String(row.pending.effective_at) : "" }, row.pending ? pendingText(row.pending) : "—"));
    }));
  }

  function drawReality() {
    ui.realityNow.textContent = state.reality_check_minutes
      ? `A reality check every ${state.reality_check_minutes} minutes of play.`
      : "No reality check: reminders are off.";
    if (state.reality_check_minutes && document.activeElement !== minutes) minutes.value = String(state.reality_check_minutes);
  }

  async function load() {
    const answer = await get("/api/me/protections");
    if (stopped) return;
    state = answer;
    drawToday();
    drawLimits();
    drawReality();
    drawExclusion();
  }

  replace(main, h("section", { class: "account-page", "aria-labelledby": "account-title" },
    h("h1", { id: "account-title" }, "My account: limits and breaks"),
    h("p", { class: "lead" }, "Set how much you may lose, how often the table stops to tell you how long you have played, or take a break from play. The casino enforces each of them on every bet."),
    h("div", { class: "account-grid" },
      h("section", { class: "panel wide", "aria-labelledby": "today-title" },
        h("h2", { id: "today-title" }, "Today"),
        ui.today,
        h("p", { class: "quiet small" }, "Today is since midnight UTC. The result is what the tables returned less what you staked. Time played runs from the first bet of each session to its last; a session ends after a while without a bet, whether or not a table is open.")),
      h("section", { class: "panel wide", "aria-labelledby": "limits-title" },
        h("h2", { id: "limits-title" }, "Loss limits"),
        h("p", { class: "quiet", id: "limits-note" }, "Each limit caps your net loss over a rolling period; stakes still in play count."),
        h("div", { class: "table-scroll" },
          h("table", { class: "data-table limits-table", "aria-labelledby": "limits-title", "aria-describedby": "limits-note" },
            h("thead", {}, h("tr", {},
              h("th", { scope: "col" }, "Period"), h("th", { scope: "col" }, "Limit"), h("th", { scope: "col" }, "Net result"),
              h("th", { scope: "col" }, "Room left"), h("th", { scope: "col" }, "Change waiting"))),
            ui.limits)),
        limitForm),
      h("section", { class: "panel", "aria-labelledby": "reality-title" },
        h("h2", { id: "reality-title" }, "Reality check"),
        ui.realityNow,
        realityForm),
      h("section", { class: "panel", "aria-labelledby": "exclusion-title" },
        h("h2", { id: "exclusion-title" }, "Take a break"),
        ui.exclusion),
      signInPanel())));

  load().catch((error) => {
    if (!stopped) replace(ui.today, h("p", { class: "fail" }, failure(error)));
  });
  return () => {
    stopped = true;
    document.getElementById("exclusion-confirm")?.remove();
    document.getElementById("zero-limit-confirm")?.remove();
  };
}

function say(node, text, kind) {
  node.textContent = text;
  node.dataset.kind = kind;
}
