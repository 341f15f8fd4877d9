/* Refit: small progressive enhancements. Everything works without this file. */
(function () {
  "use strict";

  // Live connection indicator (htmx websocket extension events).
  function setLive(state, text) {
    var el = document.getElementById("live-indicator");
    if (!el) return;
    el.setAttribute("data-state", state);
    var label = el.querySelector(".live-text");
    if (label) label.textContent = text;
  }
  document.addEventListener("htmx:wsConnecting", function () { setLive("connecting", "Connecting…"); });
  document.addEventListener("htmx:wsOpen", function () { setLive("online", "Live"); });
  document.addEventListener("htmx:wsClose", function () { setLive("offline", "Reconnecting…"); });
  document.addEventListener("htmx:wsError", function () { setLive("offline", "Reconnecting…"); });

  // Copy buttons (the link stays selectable without JavaScript).
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-copy-target]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var input = document.getElementById(button.getAttribute("data-copy-target"));
        var status = document.getElementById("copy-status");
        if (!input) return;
        function done(ok) {
          if (status) status.textContent = ok ? "Link copied." : "Select the link and copy it.";
          if (ok) { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy link"; }, 2000); }
        }
        input.select();
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(input.value).then(function () { done(true); }, function () { done(document.execCommand("copy")); });
        } else {
          done(document.execCommand("copy"));
        }
      });
    });
  });
})();
