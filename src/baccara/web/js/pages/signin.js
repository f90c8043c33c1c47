// Sign in, or register a new player (who starts with play money).

import { ApiError } from "../api.js";
import { h, money, replace } from "../dom.js";
import { t } from "../i18n.js";
import { register, signIn } from "../session.js";
import { refusal } from "../words.js";

const STARTING_CENTS = 100_000; // the play money a new player starts with (the casino's default)

export function mount(main, params, { next = "/", navigate } = {}) {
  // Signing in shows the header's links before it finishes; a person who follows one
  // meanwhile has left this page, and must not be sent back to where it was going.
  let left = false;
  const error = h("p", { class: "form-error", role: "alert", id: "sign-in-error" });
  const username = h("input", {
    id: "username", name: "username", autocomplete: "username", required: true,
    minlength: 3, maxlength: 32, spellcheck: "false",
    autocapitalize: "none", "aria-describedby": "username-hint sign-in-error",
  });
  const password = h("input", {
    id: "password", name: "password", type: "password", autocomplete: "current-password",
    required: true, "aria-describedby": "password-hint sign-in-error",
  });
  const busy = (on) => form.querySelectorAll("button").forEach((b) => { b.disabled = on; });
  const go = async (action) => {
    error.textContent = "";
    if (!username.value || !password.value) {
      error.textContent = t("session.sign_in.missing");
      return;
    }
    busy(true);
    try {
      if (action === "register") await register(username.value.trim(), password.value);
      else await signIn(username.value.trim(), password.value);
      const target = next && next !== "/sign-in" ? next : "/";
      if (navigate && !left) navigate(target, { replaceState: true });
    } catch (failure) {
      if (left) return;
      error.textContent = failure instanceof ApiError ? refusal(failure) : t("session.unreachable");
      busy(false);
    }
  };
  const form = h("form", { class: "sign-in", novalidate: true, "aria-labelledby": "sign-in-title",
    onSubmit: (event) => { event.preventDefault(); go(event.submitter && event.submitter.value === "register" ? "register" : "sign-in"); } },
    h("h1", { id: "sign-in-title" }, t("session.sign_in.title")),
    h("p", { class: "lead" }, t("session.sign_in.lead", { amount: money(STARTING_CENTS) })),
    h("div", { class: "field" },
      h("label", { for: "username" }, t("session.sign_in.username")), username,
      h("small", { id: "username-hint" }, t("session.sign_in.username_hint", { min: 3, max: 32 }))),
    h("div", { class: "field" },
      h("label", { for: "password" }, t("session.sign_in.password")), password,
      h("small", { id: "password-hint" }, t("session.sign_in.password_hint", { min: 8, max: 128 }))),
    error,
    h("div", { class: "buttons" },
      h("button", { type: "submit", class: "primary", value: "sign-in" }, t("session.sign_in.submit")),
      h("button", { type: "submit", value: "register" }, t("session.sign_in.register"))));
  replace(main, h("section", { class: "panel narrow" }, form));
  username.focus();
  return () => {
    left = true;
  };
}
