// The account's sign-in: a new password, and signing out on every device. Either one
// revokes the user's tokens on the casino, so a token copied elsewhere stops working;
// a new password keeps this device signed in with the new token it answers.

import { ApiError } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { changePassword, signOutEverywhere } from "./session.js";
import { refusal } from "./words.js";

const MIN_PASSWORD = 8;

export function signInPanel() {
  const message = h("p", { class: "form-message", id: "password-message", role: "status" });
  const everywhereMessage = h("p", { class: "form-message", id: "everywhere-message", role: "status" });
  const current = h("input", { id: "password-current", name: "current", type: "password", autocomplete: "current-password" });
  const next = h("input", {
    id: "password-new", name: "new", type: "password", autocomplete: "new-password", minlength: MIN_PASSWORD, maxlength: 128,
    "aria-describedby": "password-hint password-message",
  });
  const say = (node, text, kind) => {
    node.textContent = text;
    node.dataset.kind = kind;
  };
  const form = h("form", { class: "stack-form", id: "password-form", novalidate: true, onSubmit: async (event) => {
    event.preventDefault();
    if (next.value.length < MIN_PASSWORD) {
      say(message, t("session.password.too_short", { n: MIN_PASSWORD }), "fail");
      next.focus();
      return;
    }
    try {
      await changePassword(current.value, next.value);
      current.value = "";
      next.value = "";
      say(message, t("session.password.changed"), "done");
    } catch (error) {
      say(message, error instanceof ApiError ? refusal(error) : t("session.unreachable"), "fail");
    }
  } },
  h("div", { class: "field" }, h("label", { for: "password-current" }, t("session.password.current")), current),
  h("div", { class: "field" }, h("label", { for: "password-new" }, t("session.password.new")), next),
  h("small", { id: "password-hint" }, t("session.password.hint", { min: MIN_PASSWORD, max: 128 })),
  h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary" }, t("session.password.change"))),
  message);
  const everywhere = h("button", { type: "button", id: "sign-out-everywhere", onClick: async () => {
    try {
      await signOutEverywhere();
    } catch (error) {
      say(everywhereMessage, error instanceof ApiError ? refusal(error) : t("session.unreachable"), "fail");
    }
  } }, t("session.everywhere.button"));
  return h("section", { class: "panel", "aria-labelledby": "signin-title" },
    h("h2", { id: "signin-title" }, t("session.panel.title")),
    form,
    h("p", { class: "quiet" }, t("session.everywhere.text")),
    h("div", { class: "buttons" }, everywhere),
    everywhereMessage);
}
