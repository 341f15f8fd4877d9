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

  // The live page's socket: a heartbeat keeps the seat online; "resync" after a swap from an htmx response.
  var socket = null;
  var socketOpen = false;
  function sendToSocket(message) {
    if (socket && socketOpen) socket.send(JSON.stringify(message));
  }
  document.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    socketOpen = true;
  });
  document.addEventListener("htmx:wsClose", function () { socketOpen = false; });
  setInterval(function () { sendToSocket({ heartbeat: 1 }); }, 25000);

  // Live fragments in order. Each carries data-live-version, the version of this player's view it was rendered from
  // (campaigns_app/live.py). A socket frame and the htmx response to the player's own action can arrive in either
  // order: an older fragment never replaces a newer one. A frame only moves the page forward; a response may also
  // repeat the page's version (it can carry this action's message: an error, a notice, "This is final").
  var inFrame = false;
  var resyncTimer = null;
  function liveVersion(el) {
    var value = el && el.getAttribute ? el.getAttribute("data-live-version") : null;
    return value && /^[0-9]+$/.test(value) ? parseInt(value, 10) : null;
  }
  function keepsCurrent(incoming, current, fromFrame) {
    var next = liveVersion(incoming);
    var now = liveVersion(current);
    if (next === null || now === null) return false;
    return fromFrame ? next <= now : next < now;
  }
  function resyncSoon() {
    // the page now holds fragments its socket did not send: ask it for every fragment again, once the swap is done
    if (resyncTimer) return;
    resyncTimer = setTimeout(function () { resyncTimer = null; sendToSocket({ resync: 1 }); }, 0);
  }
  document.addEventListener("htmx:wsBeforeMessage", function () {
    inFrame = true;
    setTimeout(function () { inFrame = false; }, 0);
  });
  document.addEventListener("htmx:wsAfterMessage", function () { inFrame = false; });
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var detail = event.detail;
    var fragment = detail.fragment;
    var incoming = fragment && fragment.nodeType === 11 ? fragment.firstElementChild : fragment;
    if (keepsCurrent(incoming, detail.target, inFrame)) {
      detail.shouldSwap = false;
    } else if (!inFrame && liveVersion(incoming) !== null) {
      resyncSoon();
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    // a response aimed at one live fragment (hx-target="#chit-panel", "#owes")
    var detail = event.detail;
    var target = detail.target;
    if (!detail.shouldSwap || liveVersion(target) === null || typeof detail.serverResponse !== "string") return;
    var template = document.createElement("template");
    template.innerHTML = detail.serverResponse;
    var incoming = template.content.querySelector('[id="' + target.id + '"]');
    if (keepsCurrent(incoming, target, false)) {
      detail.shouldSwap = false;
    } else if (liveVersion(incoming) !== null) {
      resyncSoon();
    }
  });


  // Secret order form: the points this order costs and what is left, as you type (the server checks every rule).
  function orderTotals(form) {
    var total = 0;
    form.querySelectorAll(".rg-row").forEach(function (row) {
      var qty = parseInt((row.querySelector(".input-qty") || {}).value || "0", 10) || 0;
      var select = row.querySelector(".input-mode");
      var hidden = row.querySelector('input[type="hidden"][name^="mode-"]');
      var mode = select ? select.value : (hidden ? hidden.value : "entry");
      var cost = parseFloat(row.getAttribute("data-cost-" + mode) || "0") || 0;
      var pre = row.querySelector('input[name^="pre-"]');
      var extra = row.querySelector('input[name^="extra-"]');
      var each = cost + (pre ? (parseInt(pre.value || "0", 10) || 0) * (parseFloat(row.getAttribute("data-pre-cost") || "0") || 0) : 0)
        + (extra ? (parseInt(extra.value || "0", 10) || 0) : 0);
      total += qty * each;
      row.classList.toggle("chosen", qty > 0);
    });
    var points = parseFloat(form.getAttribute("data-points") || "0") || 0;
    var left = points - total;
    var fmt = function (n) { return (Math.round(n * 100) / 100).toString(); };
    var totalEl = form.querySelector("#order-total");
    var leftEl = form.querySelector("#order-left");
    if (totalEl) totalEl.textContent = fmt(total);
    if (leftEl) leftEl.textContent = fmt(left);
    var live = form.querySelector(".points-live");
    if (live) live.classList.toggle("over", left < 0);
  }
  function initOrderForms(root) {
    (root || document).querySelectorAll("#order-form").forEach(function (form) {
      form.querySelectorAll(".js-only").forEach(function (el) { el.hidden = false; });
      orderTotals(form);
    });
  }
  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("#order-form");
    if (form) orderTotals(form);
  });
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("#order-form");
    if (form) orderTotals(form);
  });
  document.addEventListener("DOMContentLoaded", function () { initOrderForms(document); });
  document.addEventListener("htmx:afterSettle", function () { initOrderForms(document); });
  document.addEventListener("htmx:oobAfterSwap", function () { initOrderForms(document); });

  // A table wider than its box scrolls inside it (never the page): say so above it, only while it does (resize, swaps).
  var SCROLL_HINT = "Scroll sideways for every column \u2192";
  function markScrollingTables() {
    document.querySelectorAll(".table-wrap, .table-scroll").forEach(function (wrap) {
      var hint = wrap.previousElementSibling;
      var has = hint && hint.classList.contains("scroll-hint");
      var scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
      if (scrolls && !has) {
        hint = document.createElement("p");
        hint.className = "scroll-hint muted small no-print";
        hint.setAttribute("aria-hidden", "true");
        hint.textContent = SCROLL_HINT;
        wrap.parentNode.insertBefore(hint, wrap);
      } else if (!scrolls && has) {
        hint.remove();
      }
      wrap.classList.toggle("scrolls", scrolls);
    });
  }
  var hintTimer = null;
  function markSoon() { clearTimeout(hintTimer); hintTimer = setTimeout(markScrollingTables, 50); }
  document.addEventListener("DOMContentLoaded", markScrollingTables);
  window.addEventListener("resize", markSoon);
  document.addEventListener("htmx:afterSettle", markSoon);
  document.addEventListener("htmx:oobAfterSwap", markSoon);

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
