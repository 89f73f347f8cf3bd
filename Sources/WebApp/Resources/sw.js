// Keeps the last-seen Today, Timetable and Tasks pages, so that they open without a network and
// say when they were drawn. Everything else goes to the network only.
"use strict";
const CACHE = "assistant-pages-v1";
const KEPT = ["/", "/tasks", "/timetable"];

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || !KEPT.includes(url.pathname)) return;
  event.respondWith(
    fetch(event.request).then(async (response) => {
      const cache = await caches.open(CACHE);
      if (response.status === 401) {
        // Unpaired or revoked: nothing of this device's pages stays behind.
        await caches.delete(CACHE);
      } else if (response.ok) {
        await cache.put(url.pathname, response.clone());
      }
      return response;
    }).catch(async () => {
      const cached = await (await caches.open(CACHE)).match(url.pathname);
      if (!cached) throw new Error("offline, and this page was never seen");
      // The copy says when it was drawn: its "as of" line, hidden while online, is shown.
      const html = (await cached.text()).replace('<p id="offline" class="flash" hidden>', '<p id="offline" class="flash">');
      return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
    })
  );
});
