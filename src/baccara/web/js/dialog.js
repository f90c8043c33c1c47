// A modal dialog: the native <dialog> shown modal, so the page behind it is inert and
// the keyboard stays inside; focus moves into it when it opens and goes back to where
// it was when it closes.

import { h } from "./dom.js";

/**
 * Open a modal dialog and return {dialog, close}.
 *
 * id: a unique id (the title and body are named after it); title: its heading; body: what
 * it says (nodes); actions: its buttons; required: Escape does not dismiss it (the
 * person must choose one of the buttons); onDismiss: called when Escape closes one
 * that is not required.
 */
export function openModal({ id, title, body, actions, required = false, onDismiss = null, className = null }) {
  const before = document.activeElement;
  const dialog = h("dialog", {
    id, class: ["modal", className], role: "dialog", "aria-modal": "true",
    "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-body`, tabindex: "-1",
  },
  h("h2", { id: `${id}-title` }, title),
  h("div", { id: `${id}-body`, class: "modal-body" }, body),
  h("div", { class: "buttons modal-actions" }, actions));
  let closed = false;
  const giveFocusBack = () => {
    if (before && before.isConnected && typeof before.focus === "function") before.focus();
  };
  dialog.addEventListener("cancel", (event) => {
    if (required) event.preventDefault();
  });
  dialog.addEventListener("close", () => {
    if (closed) return;
    if (required) {
      // A close request the browser would not let us refuse: the question stays asked.
      if (dialog.isConnected) dialog.showModal();
      return;
    }
    closed = true;
    dialog.remove();
    giveFocusBack();
    if (onDismiss) onDismiss();
  });
  document.body.append(dialog);
  dialog.showModal();
  dialog.focus();
  const close = () => {
    if (closed) return;
    closed = true;
    if (dialog.open) dialog.close();
    dialog.remove();
    giveFocusBack();
  };
  return { dialog, close };
}
