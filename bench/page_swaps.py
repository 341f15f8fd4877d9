"""The browser's side: how long a page is busy with an answer it receives, in Debian's chromium, against the e2e live
server (tests/e2e/conftest.py). Run by hand (not collected by the suite), from the repository root:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/refit REDIS_URL=redis://127.0.0.1:6379/7 \\
        .venv/bin/python -m pytest -q -s -p no:cacheprovider bench/page_swaps.py

- **The card builder's check**: a field of a PHD CG Card form changed; the check answers with every field's problem
  slot, the summary and the YAML out of band. Timed from htmx:beforeSwap until the tasks the swap queued have run.
- **A live page's full resync**: the page asks its socket for every fragment again (as after its own action). Timed
  from htmx:wsBeforeMessage until the tasks the frame queued have run.

Each is measured with Refit's scripts and, in the same run on the same page, with htmx alone (static/refit*.js
answered empty): the baseline, so the ratio says what Refit's scripts add on this machine today. It prints medians,
p90 and the ratio, and asserts nothing about them (this machine is shared and noisy).

PAGE_SWAPS_OTHER=<file>: a third variant, that file served as static/refit.js (refit-forms.js empty), e.g. an earlier
commit's ``git show c359ec3:static/refit.js > /tmp/refit-then.js``: before and after in one run.
"""
from __future__ import annotations

import os
import re
import statistics
import time
from collections.abc import Callable

from tests.e2e.conftest import (  # noqa: F401  (fixtures)
    Player,
    browser,
    create_campaign,
    join_campaign,
    live_server_process,
    live_url,
    new_player,
    output_dir,
    sign_up,
)

CHECKS = 8
RESYNCS = 30
WARM = 2
NO_SCRIPTS = "/*"  # static/refit.js and refit-forms.js answered with an empty script: htmx alone
OTHER = os.environ.get("PAGE_SWAPS_OTHER", "")
VARIANTS = ("refit", "bare", "other") if OTHER else ("refit", "bare")

# Installed before the page's own scripts: the ends of each answer's work, in ms (performance.now), and the socket.
TIMERS = """
window.__busy = [];
function __after(t0) { setTimeout(function () { setTimeout(function () { window.__busy.push(performance.now() - t0); }, 0); }, 0); }
document.addEventListener('htmx:beforeSwap', function (e) { if (e.detail.requestConfig) __after(performance.now()); });
document.addEventListener('htmx:wsBeforeMessage', function () { __after(performance.now()); });
document.addEventListener('htmx:wsOpen', function (e) { window.__ws = e.detail.socketWrapper; });
"""


def _figures(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]


def _report(what: str, samples: dict[str, list[float]]) -> None:
    (m, p90), (bm, bp90) = _figures(samples["refit"]), _figures(samples["bare"])
    print(f"\n{what}: with Refit's scripts median {m:.1f} ms, p90 {p90:.1f} ms; htmx alone median {bm:.1f} ms, "
          f"p90 {bp90:.1f} ms; ratio {m / bm:.2f}× (median), {p90 / bp90:.2f}× (p90)")
    if OTHER:
        om, op90 = _figures(samples["other"])
        print(f"  with {OTHER} as refit.js: median {om:.1f} ms, p90 {op90:.1f} ms; ratio to htmx alone {om / bm:.2f}×")


def _serve(page: object, variant: str) -> None:
    """The page's scripts for ``variant``: Refit's own, none (htmx alone) or PAGE_SWAPS_OTHER's refit.js."""
    page.unroute_all()  # type: ignore[attr-defined]
    if variant == "bare":
        page.route(re.compile(r".*/static/refit(-forms)?\.js$"),  # type: ignore[attr-defined]
                   lambda route: route.fulfill(body=NO_SCRIPTS, content_type="text/javascript"))
    elif variant == "other":
        page.route(re.compile(r".*/static/refit-forms\.js$"),  # type: ignore[attr-defined]
                   lambda route: route.fulfill(body=NO_SCRIPTS, content_type="text/javascript"))
        page.route(re.compile(r".*/static/refit\.js$"),  # type: ignore[attr-defined]
                   lambda route: route.fulfill(path=OTHER, content_type="text/javascript"))


def _builder_checks(player: Player, variant: str) -> list[float]:
    page = player.page
    _serve(page, variant)
    page.goto("/cards/build/phd/")  # type: ignore[attr-defined]
    page.locator('[name="setup_costs.minimum"]').wait_for()  # type: ignore[attr-defined]
    field = page.locator('[name="setup_costs.minimum"]')  # type: ignore[attr-defined]
    for k in range(WARM + CHECKS):
        field.fill(str(k + 1))
        field.dispatch_event("change")
        page.wait_for_function(f"window.__busy.length >= {k + 1}", timeout=120_000)  # type: ignore[attr-defined]
    return list(page.evaluate("window.__busy"))[WARM:]  # type: ignore[attr-defined]


def test_the_card_builders_check(new_player: Callable[[str], Player]) -> None:  # noqa: F811
    samples: dict[str, list[float]] = {variant: [] for variant in VARIANTS}
    for round_ in range(2):  # alternating: each variant, then each again
        for n, variant in enumerate(VARIANTS):
            player = new_player("allied")
            player.context.add_init_script(TIMERS)  # type: ignore[attr-defined]
            player.page.goto("/accounts/signup/")  # type: ignore[attr-defined]
            sign_up(player.page, f"{player.name}{round_}{n}")
            player.page.wait_for_url(re.compile(r"/campaigns/$"))  # type: ignore[attr-defined]
            samples[variant] += _builder_checks(player, variant)
    _report(f"PHD card builder, one check's answer ({2 * CHECKS} each)", samples)


def test_a_live_pages_full_resync(new_player: Callable[[str], Player], live_url: str) -> None:  # noqa: F811
    ger, cdn = new_player("german"), new_player("canadian")
    for player in (ger, cdn):
        player.context.add_init_script(TIMERS)  # type: ignore[attr-defined]
    path, link = create_campaign(ger, live_url, "bench")
    join_campaign(cdn, link, live_url, path)
    page = cdn.page
    samples: dict[str, list[float]] = {variant: [] for variant in VARIANTS}
    for variant in VARIANTS + VARIANTS:  # alternating
        _serve(page, variant)
        page.goto(path)  # type: ignore[attr-defined]
        page.wait_for_function("window.__ws !== undefined && document.querySelector('[data-live-version]')")  # type: ignore[attr-defined]
        time.sleep(0.5)  # the socket's own first frames
        start = int(page.evaluate("window.__busy.length"))  # type: ignore[attr-defined]
        for k in range(WARM + RESYNCS):
            page.evaluate("window.__ws.send(JSON.stringify({resync: 1}))")  # type: ignore[attr-defined]
            page.wait_for_function(f"window.__busy.length >= {start + k + 1}", timeout=60_000)  # type: ignore[attr-defined]
        samples[variant] += list(page.evaluate("window.__busy"))[start + WARM:]  # type: ignore[attr-defined]
    fragments = int(page.evaluate("document.querySelectorAll('[data-live-version]').length"))  # type: ignore[attr-defined]
    _report(f"live page ({fragments} fragments), one full resync frame ({2 * RESYNCS} each)", samples)
