/* Refit: the live pages (fragments in order, focus, announcements, local times). Everything works without this file;
   static/refit-forms.js has the forms and tables part. */
(function () {
  "use strict";

  // Work over the whole page after swaps, done once when a burst of them is over: after each out-of-band swap htmx
  // fires oobAfterSwap for every element the response has swapped so far (n fragments: n²/2 events), and afterSettle
  // for every settled element.
  function onceAfterSwaps(work) {
    var timer = null;
    return function () {
      if (timer) return;
      timer = setTimeout(function () { timer = null; work(); }, 0);
    };
  }

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
  // An out-of-band element that comes back exactly as the page shows it, and holds no form control (a card builder's
  // field problem, its summary, its YAML: a check answers with every one of them), is left as it is. htmx fires
  // oobAfterSwap for every element swapped so far after each out-of-band swap, so a hundred needless swaps cost
  // thousands of events; a form control is swapped even when equal (the answer may mean to clear what was typed).
  function sameText(incoming, current) {
    if (!incoming || !current || !incoming.isEqualNode || liveVersion(current) !== null) return false;
    if (current.querySelector("input, select, textarea, button")) return false;
    return incoming.isEqualNode(current);
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
    if (sameText(incoming, target)) {
      detail.shouldSwap = false;
      return;
    }
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
  document.addEventListener("htmx:oobAfterSwap", onceAfterSwaps(addCsrfFields));
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
  var localTimesSoon = onceAfterSwaps(function () { localTimes(); });
  document.addEventListener("htmx:afterSettle", localTimesSoon);
  document.addEventListener("htmx:oobAfterSwap", localTimesSoon);
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
  document.addEventListener("htmx:oobAfterSwap", onceAfterSwaps(dropClosedForms));
})();
