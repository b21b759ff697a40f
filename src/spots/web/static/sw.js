// The service worker: makes the site installable and shows a Web Push your-turn notice; a tap opens the seat.
"use strict";
self.addEventListener("push", (event) => {
  const data = event.data ? event.data.json() : {};
  event.waitUntil(self.registration.showNotification(data.title || "Spots", { data: { url: data.url || "/" }, tag: data.url }));
});
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(self.clients.openWindow(event.notification.data.url));
});
self.addEventListener("fetch", () => {});  // online only: every request goes to the server as usual
