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
  // A fragment a frame brings again with the same content (only its version moved: another fragment of this seat's
  // view changed) is not replaced, only given the new version: what the player is typing in it, its focus and its
  // scroll stay. Compared with the fragment as this page received it, before any script touched it.
  var received = {};
  function contentOf(el) {
    var copy = el.cloneNode(true);
    copy.removeAttribute("data-live-version");
    copy.removeAttribute("hx-swap-oob");
    // the whole page's forms carry a CSRF field (they also post without JavaScript); the fragments a socket sends
    // do not (htmx sends the header)
    [].slice.call(copy.querySelectorAll('input[name="csrfmiddlewaretoken"]')).forEach(function (el) { el.remove(); });
    return copy.outerHTML;
  }
  function rememberReceived(root) {
    [].slice.call(root.querySelectorAll("[data-live-version][id]")).forEach(function (el) { received[el.id] = contentOf(el); });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { rememberReceived(document); });
  } else {
    rememberReceived(document);
  }
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var detail = event.detail;
    var fragment = detail.fragment;
    var target = detail.target;
    var incoming = fragment && fragment.nodeType === 11 ? fragment.firstElementChild : fragment;
    if (keepsCurrent(incoming, target, inFrame)) {
      detail.shouldSwap = false;
      return;
    }
    if (!incoming || liveVersion(incoming) === null || !target || !target.id) return;
    var content = contentOf(incoming);
    if (inFrame && received[target.id] === content) {
      detail.shouldSwap = false;
      target.setAttribute("data-live-version", incoming.getAttribute("data-live-version"));
      return;
    }
    received[target.id] = content;
    if (!inFrame) resyncSoon();
  });
  // A fragment from the socket is rendered without the request, so its forms carry no CSRF field (htmx sends the
  // header); a plain form in it (the notes page's "Reveal" buttons) gets the page's own token before it is posted.
  function pageCsrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }
  function addCsrfFields() {
    var token = pageCsrfToken();
    if (!token) return;
    [].slice.call(document.querySelectorAll('[data-live-version] form[method="post"]')).forEach(function (form) {
      if (form.querySelector('input[name="csrfmiddlewaretoken"]')) return;
      var field = document.createElement("input");
      field.type = "hidden";
      field.name = "csrfmiddlewaretoken";
      field.value = token;
      form.insertBefore(field, form.firstChild);
    });
  }
  document.addEventListener("htmx:oobAfterSwap", addCsrfFields);
  // deadlines in the reader's own time zone (the server writes UTC; the element keeps its ISO moment)
  function localTimes(root) {
    [].slice.call((root || document).querySelectorAll("time[data-local]")).forEach(function (el) {
      var moment = new Date(el.getAttribute("datetime"));
      if (isNaN(moment.getTime())) return;
      // data-local="short": a message's time, day and minute only (the reader's own zone, not named)
      el.textContent = el.getAttribute("data-local") === "short"
        ? moment.toLocaleString(undefined, {day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"})
        : moment.toLocaleString(undefined, {weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short"});
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { localTimes(); });
  else localTimes();
  document.addEventListener("htmx:afterSettle", function () { localTimes(); });
  document.addEventListener("htmx:oobAfterSwap", function () { localTimes(); });
  // a message sent: empty the form for the next one (the conversation itself arrives as a fragment)
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.id === "message-form" && event.detail.xhr && event.detail.xhr.status === 200) form.reset();
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
      received[target.id] = contentOf(incoming);
      resyncSoon();
    }
  });



  // Focus after the player's own action (WCAG 2.4.3). When the response to this page's own htmx request has been
  // swapped in and the element that had focus is gone (focus fell to <body>), focus goes, inside the live fragment the
  // request came from, to the error that says what went wrong, else to what the player does next or the message that
  // says what happened ([data-focus-after]), else to the fragment's heading. A websocket frame (the opponent's action)
  // never moves focus: only a request this page sent does.
  function focusable(el) {
    if (!el.hasAttribute("tabindex") && !/^(A|BUTTON|INPUT|SELECT|TEXTAREA)$/.test(el.tagName)) el.setAttribute("tabindex", "-1");
    return el;
  }
  function visibleEl(el) { return !!(el && (el.offsetWidth || el.offsetHeight || el.getClientRects().length)); }
  function focusAfter(fragmentId) {
    var active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;  // the player has moved on: keep it
    var fragment = document.getElementById(fragmentId);
    if (!fragment || fragment.hidden) fragment = document.getElementById("step-panel");
    if (!fragment) return;
    var target = null;
    [".alert-error", "[data-focus-after]", '[role="alert"], .alert[role="status"]', "h2, h1"].some(function (selector) {
      target = [].slice.call(fragment.querySelectorAll(selector)).filter(visibleEl)[0] || null;
      return target !== null;
    });
    if (target) focusable(target).focus();
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    var xhr = event.detail.xhr;
    var fragment = elt && elt.closest ? elt.closest("[data-live-version]") : null;
    if (!fragment || !fragment.id || !xhr) return;
    var fragmentId = fragment.id;
    // On the request itself, not htmx:afterRequest: when a websocket frame has already replaced the fragment that
    // held the form, htmx fires afterRequest on the detached form and the event never reaches the document.
    // "loadend" comes after htmx's own onload handler has swapped the response in.
    xhr.addEventListener("loadend", function () {
      setTimeout(function () { focusAfter(fragmentId); }, 60);  // after htmx has settled the swap (20 ms)
    });
  });

  // A websocket frame that replaces the fragment holding the focus keeps the focus where it was: on the element with
  // the same id in the new fragment (else on what focusAfter would choose), never on <body>.
  var focusBeforeFrame = null;
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var active = document.activeElement;
    var target = event.detail.target;
    if (!inFrame || event.detail.shouldSwap === false || !target || !active || active === document.body) return;
    if (target.contains(active)) focusBeforeFrame = { fragment: target.id, id: active.id || null };
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    var kept = focusBeforeFrame;
    focusBeforeFrame = null;
    var active = document.activeElement;
    if (!kept || (active && active !== document.body && active.isConnected)) return;
    var same = kept.id ? document.getElementById(kept.id) : null;
    if (same && visibleEl(same) && !same.disabled) {
      focusable(same).focus({ preventScroll: true });
    } else {
      focusAfter(kept.fragment);
    }
  });

  // One permanent polite live region (#live-announcer, outside the swapped fragments) says what just happened, one
  // short sentence per event: the new lines of this side's "Latest events" (#history-latest: each <li> carries its
  // sentence in data-announce, rendered from this side's own view, so it says only what this player may know), and
  // on the notes page every line of a list marked data-announce-new whose sentence was not there before (the
  // opponent's notes and secret rolls, in the shadow's words: "The German side sealed note #2."; the CG's end).
  // Whether the lines came in a websocket frame or in the response to the player's own action, each is said once.
  var heardEvents = null;
  var heardItems = null;
  function eventLines() {
    var list = document.getElementById("history-latest");
    if (!list) return null;
    return [].slice.call(list.querySelectorAll("[data-announce]")).map(function (li) { return li.getAttribute("data-announce"); });
  }
  function itemLines() {
    var lists = [].slice.call(document.querySelectorAll("[data-announce-new]"));
    if (!lists.length) return null;
    var lines = [];
    lists.forEach(function (list) {
      [].slice.call(list.querySelectorAll("[data-announce]")).forEach(function (el) { lines.push(el.getAttribute("data-announce")); });
    });
    return lines;
  }
  function newLines(before, after) {
    // the longest end of the old window that starts the new one: what follows it is new
    for (var k = Math.min(before.length, after.length); k > 0; k--) {
      var same = true;
      for (var j = 0; j < k; j++) { if (before[before.length - k + j] !== after[j]) { same = false; break; } }
      if (same) return after.slice(k);
    }
    return after.slice();
  }
  var announceTimer = null;
  function announceNew() {
    var region = document.getElementById("live-announcer");
    if (!region) return;
    var fresh = [];
    var lines = eventLines();
    if (lines !== null) {
      if (heardEvents !== null) fresh = newLines(heardEvents, lines);
      heardEvents = lines;
    }
    var items = itemLines();
    if (items !== null) {
      if (heardItems !== null) {
        var before = heardItems;
        fresh = fresh.concat(items.filter(function (line) { return before.indexOf(line) < 0; }));
      }
      heardItems = items;
    }
    if (!fresh.length) return;
    region.textContent = "";
    setTimeout(function () { region.textContent = fresh.join(" "); }, 50);  // cleared first: a repeated sentence is said again
  }
  function announceSoon() {
    if (announceTimer) return;
    announceTimer = setTimeout(function () { announceTimer = null; announceNew(); }, 0);
  }
  document.addEventListener("DOMContentLoaded", function () { heardEvents = eventLines(); heardItems = itemLines(); });
  document.addEventListener("htmx:oobAfterSwap", announceSoon);
  document.addEventListener("htmx:afterSwap", announceSoon);

  // The CG ended while this page was open: a live list now says so (data-cg-ended), and the forms that only work
  // before the end (data-while-cg-open: the notes page's "Seal" and "Roll in secret") go, as a reload would drop them.
  function dropClosedForms() {
    if (!document.querySelector("[data-cg-ended]")) return;
    [].slice.call(document.querySelectorAll("[data-while-cg-open]")).forEach(function (el) { el.remove(); });
  }
  document.addEventListener("htmx:oobAfterSwap", dropClosedForms);

  // A table wider than its box scrolls: a keyboard user can reach it (tabindex) and hears what it is (WCAG 2.1.1).
  function labelScrollers() {
    document.querySelectorAll(".table-wrap, .table-scroll").forEach(function (box) {
      if (box.scrollWidth <= box.clientWidth + 1 || box.hasAttribute("tabindex")) return;
      box.setAttribute("tabindex", "0");
      if (!box.getAttribute("role")) box.setAttribute("role", "region");
      if (!box.hasAttribute("aria-label") && !box.hasAttribute("aria-labelledby")) {
        var caption = box.querySelector("caption");
        var card = box.closest("section");
        var heading = card ? card.querySelector("h2, h3") : null;
        var name = (caption && caption.textContent) || (heading && heading.textContent) || "Table";
        box.setAttribute("aria-label", name.replace(/\s+/g, " ").trim());
      }
    });
  }
  var scrollTimer = null;
  function labelScrollersSoon() {
    clearTimeout(scrollTimer);
    scrollTimer = setTimeout(labelScrollers, 50);
  }
  document.addEventListener("DOMContentLoaded", labelScrollers);
  window.addEventListener("resize", labelScrollers);
  document.addEventListener("htmx:afterSettle", labelScrollersSoon);
  document.addEventListener("htmx:oobAfterSwap", labelScrollersSoon);

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
