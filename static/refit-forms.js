/* Refit: the pages' forms and tables (wide tables, the secret order form's totals, copy buttons). Everything works
   without this file; static/refit.js has the live pages' part. */
(function () {
  "use strict";

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
  // once a burst of swaps is over (htmx fires oobAfterSwap n²/2 times for n out-of-band fragments)
  var ordersTimer = null;
  function orderFormsSoon() { clearTimeout(ordersTimer); ordersTimer = setTimeout(function () { initOrderForms(document); }, 0); }
  document.addEventListener("htmx:afterSettle", orderFormsSoon);
  document.addEventListener("htmx:oobAfterSwap", orderFormsSoon);

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
