// Enhancements only: every page works without this file.
"use strict";
document.addEventListener("submit", (event) => {
  const button = event.target.querySelector("button");
  if (button) button.disabled = true;
});
// Today, Timetable and Tasks are kept for when there is no network (sw.js).
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js");
// New notices appear on the Notices page as they come, newest first.
const list = document.getElementById("notices");
if (list && window.EventSource) {
  const source = new EventSource("/notices/live");
  source.addEventListener("notice", (event) => {
    const notice = JSON.parse(event.data);
    const item = document.createElement("li");
    item.className = "notice " + notice.severity;
    const when = document.createElement("span");
    when.className = "when";
    when.textContent = new Date(notice.time).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
    const title = document.createElement("strong");
    title.textContent = notice.title;
    item.append(when, " ", title, document.createElement("br"), notice.body);
    list.prepend(item);
  });
}
// A picture that cannot be made now (a webcam that is off) leaves its caption, not a broken image.
for (const image of document.querySelectorAll(".pictures img")) {
  image.addEventListener("error", () => image.closest("figure").classList.add("unavailable"));
  image.addEventListener("load", () => image.closest("figure").classList.remove("unavailable"));
}
// A picture that follows the printer (its webcam, its temperatures) is drawn again while the page is in view.
for (const image of document.querySelectorAll("img[data-refresh]")) {
  const seconds = Math.max(2, Number(image.dataset.refresh) || 10);
  const base = image.getAttribute("src");
  setInterval(() => {
    if (document.visibilityState !== "visible") return;
    const next = new Image();
    next.onload = () => { image.src = next.src; };
    next.src = base + (base.includes("?") ? "&" : "?") + "at=" + Date.now();
  }, seconds * 1000);
}
// A field with suggestions (airports) offers them as the person types.
for (const input of document.querySelectorAll("input[data-suggest]")) {
  const list = document.getElementById(input.getAttribute("list"));
  let timer = 0;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    const typed = input.value.trim();
    if (typed.length < 2 || !list) return;
    timer = setTimeout(async () => {
      const response = await fetch(input.dataset.suggest + "?q=" + encodeURIComponent(typed), { credentials: "same-origin" });
      if (!response.ok) return;
      const offered = await response.json();
      list.replaceChildren(...offered.map((item) => {
        const option = document.createElement("option");
        option.value = item.value;
        option.label = item.label;
        return option;
      }));
    }, 150);
  });
}
// Swiping a row to the right presses its swipe button (Done), as a phone's list does.
for (const row of document.querySelectorAll("[data-swipe]")) {
  const form = row.querySelector("form.swipe");
  if (!form) continue;
  let startX = 0, startY = 0, moving = false;
  row.addEventListener("touchstart", (event) => {
    startX = event.touches[0].clientX;
    startY = event.touches[0].clientY;
    moving = true;
  }, { passive: true });
  row.addEventListener("touchmove", (event) => {
    if (!moving) return;
    const dx = event.touches[0].clientX - startX;
    if (Math.abs(event.touches[0].clientY - startY) > 40) { moving = false; row.style.transform = ""; return; }
    if (dx > 0) row.style.transform = "translateX(" + Math.min(dx, 120) + "px)";
  }, { passive: true });
  row.addEventListener("touchend", (event) => {
    const dx = event.changedTouches[0].clientX - startX;
    row.style.transform = "";
    if (moving && dx > 90) form.requestSubmit();
    moving = false;
  });
}
