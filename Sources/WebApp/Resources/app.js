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
