// Enhancements only: every page works without this file.
"use strict";
document.addEventListener("submit", (event) => {
  const button = event.target.querySelector("button");
  if (button) button.disabled = true;
});
