// Sign in, or register a new player (who starts with play money).

import { ApiError } from "../api.js";
import { h, replace } from "../dom.js";
import { register, signIn } from "../session.js";

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
      error.textContent = "Enter a username and a password.";
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
      error.textContent = failure instanceof ApiError ? failure.message : "The casino cannot be reached; try again.";
      busy(false);
    }
  };
  const form = h("form", { class: "sign-in", novalidate: true, "aria-labelledby": "sign-in-title",
    onSubmit: (event) => { event.preventDefault(); go(event.submitter && event.submitter.value === "register" ? "register" : "sign-in"); } },
    h("h1", { id: "sign-in-title" }, "Sign in to play"),
    h("p", { class: "lead" }, "New here? Choose a username and a password and press Register: you start with 1,000.00 of play money."),
    h("div", { class: "field" },
      h("label", { for: "username" }, "Username"), username,
      h("small", { id: "username-hint" }, "3 to 32 letters, digits, dots, dashes or underscores.")),
    h("div", { class: "field" },
      h("label", { for: "password" }, "Password"), password,
      h("small", { id: "password-hint" }, "8 to 128 characters.")),
    error,
    h("div", { class: "buttons" },
      h("button", { type: "submit", class: "primary", value: "sign-in" }, "Sign in"),
      h("button", { type: "submit", value: "register" }, "Register")));
  replace(main, h("section", { class: "panel narrow" }, form));
  username.focus();
  return () => {
    left = true;
  };
}
