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
// What a part of the page gains from scripts: pictures drawn again, suggestions, swipes. Called
// again for a live page's new content.
function enhance(root) {
  // A picture that cannot be made now (a webcam that is off) leaves its caption, not a broken image.
  for (const image of root.querySelectorAll(".pictures img")) {
    image.addEventListener("error", () => image.closest("figure").classList.add("unavailable"));
    image.addEventListener("load", () => image.closest("figure").classList.remove("unavailable"));
  }
  // A field with suggestions (airports) offers them as the person types.
  for (const input of root.querySelectorAll("input[data-suggest]")) {
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
  for (const row of root.querySelectorAll("[data-swipe]")) {
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
}
enhance(document);

// A picture that follows the printer (its webcam, its temperatures) is drawn again, every so
// many seconds, while the page is in view.
setInterval(() => {
  if (document.visibilityState !== "visible") return;
  const now = Date.now();
  for (const image of document.querySelectorAll("img[data-refresh]")) {
    const due = Number(image.dataset.drawn || now) + Math.max(2, Number(image.dataset.refresh) || 10) * 1000;
    if (!image.dataset.drawn) { image.dataset.drawn = String(now); continue; }
    // One at a time: a slow camera is not asked again before it has answered.
    if (now < due || image.dataset.loading) continue;
    image.dataset.drawn = String(now);
    image.dataset.loading = "1";
    const base = image.getAttribute("src").replace(/[?&]at=\d+$/, "");
    const next = new Image();
    next.onload = () => { image.src = next.src; delete image.dataset.loading; };
    next.onerror = () => { delete image.dataset.loading; };
    next.src = base + (base.includes("?") ? "&" : "?") + "at=" + now;
  }
}, 1000);

// A live page (Today, Printers) is drawn again every `data-live` seconds while in view, unless
// the person is typing in it; what the last change said stays.
const live = document.querySelector("main[data-live]");
if (live) {
  const editing = () => [...live.querySelectorAll("input:not([type=hidden]), select, textarea")].some((field) =>
    field === document.activeElement
    || (field.tagName === "SELECT" ? [...field.options].some((o) => o.selected !== o.defaultSelected) : field.value !== field.defaultValue));
  let drawn = Date.now(), fetching = false;
  setInterval(async () => {
    const every = Math.max(2, Number(live.dataset.live) || 30) * 1000;
    if (fetching || Date.now() - drawn < every || document.visibilityState !== "visible" || editing()) return;
    fetching = true;
    try {
      const response = await fetch(location.href, { credentials: "same-origin" });
      const fresh = response.ok ? new DOMParser().parseFromString(await response.text(), "text/html").querySelector("main") : null;
      if (!fresh || editing()) return;
      const said = live.querySelector(".flash[role=status]");
      live.replaceChildren(...fresh.childNodes);
      if (said) live.querySelector("#offline").after(said);
      enhance(live);
      live.dispatchEvent(new Event("redrawn"));
    } catch {
      // No network: the page stays as it is, and says so on the next load.
    } finally {
      drawn = Date.now();
      fetching = false;
    }
  }, 1000);
}
