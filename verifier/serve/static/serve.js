// The page of `verifier serve`: line numbers that follow the text, the cursor put on an
// error's line, the example menu narrowed to the chosen game, and the address bar holding
// the question's link after a run. The page works without it, as plain forms.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const text = document.getElementById("scenario");
  const gutter = document.getElementById("gutter");
  const code = document.getElementById("code");
  const errorLine = Number(code.dataset.errorLine || 0);
  let edited = false;

  function number() {
    const lines = text.value.split("\n").length;
    if (gutter.children.length === lines) return;
    const items = [];
    for (let n = 1; n <= lines; n++) {
      const item = document.createElement("li");
      item.textContent = String(n);
      if (n === errorLine && !edited) {
        item.className = "error";
        item.title = gutter.querySelector("li.error")?.title || "";
      }
      items.push(item);
    }
    gutter.replaceChildren(...items);
  }

  function follow() {
    gutter.scrollTop = text.scrollTop;
  }

  text.addEventListener("input", () => {
    edited = true;
    number();
    code.classList.remove("has-error");
    for (const marked of gutter.querySelectorAll("li.error")) marked.className = "";
  });
  text.addEventListener("scroll", follow);
  number();

  // An error at a line of the scenario: put the cursor there, and that line in view.
  if (errorLine > 0) {
    const lines = text.value.split("\n");
    let start = 0;
    for (let n = 1; n < errorLine && n <= lines.length; n++) start += lines[n - 1].length + 1;
    const end = start + (lines[errorLine - 1] || "").length;
    text.focus({ preventScroll: true });
    text.setSelectionRange(start, end);
    text.scrollTop = Math.max(0, (errorLine - 3) * 20);
    follow();
  }

  // The example menu shows the chosen game's examples; choosing one opens it.
  const open = document.getElementById("open");
  const game = document.getElementById("game");
  const example = document.getElementById("example");
  function narrow() {
    for (const group of example.querySelectorAll("optgroup")) {
      const shown = group.dataset.game === game.value;
      group.hidden = !shown;
      group.disabled = !shown;
    }
    const chosen = example.selectedOptions[0];
    if (chosen && chosen.parentElement.disabled) example.value = "";
  }
  narrow();
  game.addEventListener("change", () => { narrow(); open.submit(); });
  example.addEventListener("change", () => open.submit());

  // After a run, the address is the question's link: reload it or copy it from the bar.
  const link = document.getElementById("permalink");
  if (link) history.replaceState(null, "", link.href);
});
