// The account's sign-in: a new password, and signing out on every device. Either one
// revokes the user's tokens on the casino, so a token copied elsewhere stops working;
// a new password keeps this device signed in with the new token it answers.

import { ApiError } from "./api.js";
import { h } from "./dom.js";
import { changePassword, signOutEverywhere } from "./session.js";

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
      say(message, `A new password has at least ${MIN_PASSWORD} characters.`, "fail");
      next.focus();
      return;
    }
    try {
      await changePassword(current.value, next.value);
      current.value = "";
      next.value = "";
      say(message, "Your password is changed. Every other device is signed out; this one stays signed in.", "done");
    } catch (error) {
      say(message, error instanceof ApiError ? error.message : "The casino cannot be reached; try again.", "fail");
    }
  } },
  h("div", { class: "field" }, h("label", { for: "password-current" }, "Current password"), current),
  h("div", { class: "field" }, h("label", { for: "password-new" }, "New password"), next),
  h("small", { id: "password-hint" }, `${MIN_PASSWORD} to 128 characters. Changing it signs you out everywhere else.`),
  h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary" }, "Change password")),
  message);
  const everywhere = h("button", { type: "button", id: "sign-out-everywhere", onClick: async () => {
    try {
      await signOutEverywhere();
    } catch (error) {
      say(everywhereMessage, error instanceof ApiError ? error.message : "The casino cannot be reached; try again.", "fail");
    }
  } }, "Sign out everywhere");
  return h("section", { class: "panel", "aria-labelledby": "signin-title" },
    h("h2", { id: "signin-title" }, "Sign-in"),
    form,
    h("p", { class: "quiet" }, "Signed in on a device you no longer have? Sign out on every device, this one too."),
    h("div", { class: "buttons" }, everywhere),
    everywhereMessage);
}
