// What went wrong with a request, in the reader's language: the casino's refusal worded
// from its code and figures (words.js), or — when no answer came at all — that the
// casino cannot be reached. Kept apart from api.js, which the language module itself
// reads through (prefs.js), so the two never wait on each other to load.

import { ApiError } from "./api.js";
import { t } from "./i18n.js";
import { refusal } from "./words.js";

/** A failed request in words: "Your balance is too low.", "The casino cannot be reached; try again." */
export function failureText(error, game = null) {
  return error instanceof ApiError ? refusal(error, game) : t("account.api.unreachable");
}
