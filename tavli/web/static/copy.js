/* Copying to the clipboard, the button saying so for a moment: the online pages'
 * invitation and watch links (copyLink) and tavli play's position IDs (copyText).
 * Without the clipboard API (a page on a plain-HTTP address) the text is selected for
 * Ctrl-C instead.
 */
import {t} from "./i18n.js";
import {toast} from "./util.js";

/** `button` says `key` (the catalogue's), then Copy again. */
function copied(button, key = "btn.copied") {
  button.textContent = t(key);
  setTimeout(() => { button.textContent = t("btn.copy"); }, 1500);
}

/** Copy the link of the field `input`. */
export async function copyLink(input, button) {
  try {
    await navigator.clipboard.writeText(input.value);
    copied(button);
  } catch (e) {
    input.select();
    copied(button, "on.select_copy");
  }
}

/** Copy the text of the element `code`. */
export async function copyText(code, button) {
  try {
    await navigator.clipboard.writeText(code.textContent);
  } catch (e) {   // no clipboard API (a plain-HTTP address): select it for Ctrl-C
    const range = document.createRange();
    range.selectNodeContents(code);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    if (!document.execCommand || !document.execCommand("copy")) {
      toast(t("toast.ctrl_c"));
      return;
    }
  }
  copied(button);
}
