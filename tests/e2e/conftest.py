"""End-to-end harness: a fresh PostgreSQL database, the real ASGI server in a subprocess, Debian's chromium via Playwright.

Nothing here touches Django's database in-process: the server under test is a separate process with its own
database, named after DATABASE_URL's: ``<name>_e2e`` on the same server (``refit`` → ``refit_e2e``, ``refit_p`` →
``refit_p_e2e``), so two test runs with different DATABASE_URLs never drop each other's database. Redis: the db number
REDIS_URL names (``redis://host:6379/2`` → 2), else db 6; the channel prefix is ``refit-e2e-<name>`` either way.
Outputs (server.log, mail/, screenshots) go to test-results/e2e/ for ``refit`` and test-results/e2e-<name>/ otherwise.

The players (``new_player``): one browser context each, every websocket frame its page receives recorded, and when a
test fails a screenshot, the HTML, the frames and the test's actions of every player — all taken before any context
closes (closing one takes its player offline on the other pages). Each page counts its htmx requests whose response
is not processed yet (``settle`` waits for none, even when a websocket frame has already replaced the form that sent
one) and can hold responses back (``hold_responses``) to land them after a newer frame. The play helpers below drive
the live page as a player would.

Accessibility: ``check_accessibility(page, label)`` runs axe-core (vendored, tests/e2e/vendor/) at 1280 and 390 px
and fails on any serious or critical WCAG 2.1 AA violation; the ``screenshot`` fixture calls it for every picture, so
a new test that photographs its pages is checked too (call it directly for a state it does not photograph).
"""
from __future__ import annotations

import functools
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DEFAULT_REDIS_DB = 6
SERVER_START_TIMEOUT = 60.0


def database_name(url: str) -> str:
    """The database name in a DATABASE_URL (``postgres://u@h:5432/refit_p`` → ``refit_p``); ``refit`` when absent."""
    return urlsplit(url).path.lstrip("/") or "refit"


def e2e_database_name(url: str) -> str:
    """``<name>_e2e``: each DATABASE_URL gets its own end-to-end database."""
    return f"{database_name(url)}_e2e"


def e2e_redis_db(url: str) -> int:
    """The db number REDIS_URL names, else 6."""
    path = urlsplit(url).path.strip("/")
    return int(path) if path.isdigit() else DEFAULT_REDIS_DB


def results_dir(url: str) -> Path:
    """test-results/e2e/ for the default ``refit`` database, test-results/e2e-<name>/ for any other."""
    name = database_name(url)
    return REPO / "test-results" / ("e2e" if name == "refit" else f"e2e-{name}")


RESULTS = results_dir(os.environ.get("DATABASE_URL", ""))


def with_database(url: str, name: str) -> str:
    """The same server URL pointing at another database."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def with_redis_db(url: str, db: int) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, parts.fragment))


def recreate_database(server_url: str, name: str) -> None:
    """DROP and CREATE ``name`` on the server of ``server_url`` (connecting to its maintenance database)."""
    import psycopg

    maintenance = re.sub(r"^postgres(ql)?(\+\w+)?://", "postgresql://", with_database(server_url, "postgres"))
    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_answering(process: subprocess.Popen[bytes], url: str, log: Path, timeout: float) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    last_error = ""
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the ASGI server exited with {process.returncode}; see {log}:\n{log.read_text()[-3000:]}")
        try:
            httpx.get(url, timeout=2.0, trust_env=False)
            return
        except httpx.HTTPError as exc:
            last_error = repr(exc)
            time.sleep(0.2)
    raise RuntimeError(f"the ASGI server did not answer at {url} within {timeout:.0f}s ({last_error}); see {log}")


def manage(env: dict[str, str], *args: str, log: Path) -> None:
    with log.open("ab") as out:
        out.write(f"\n$ manage.py {' '.join(args)}\n".encode())
        out.flush()
        done = subprocess.run(
            [sys.executable, str(REPO / "manage.py"), *args],
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, timeout=300, check=False,
        )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed ({done.returncode}); see {log}:\n{log.read_text()[-3000:]}")


@dataclass(frozen=True)
class LiveServer:
    url: str
    database_url: str
    mail_dir: Path
    log: Path
    env: dict[str, str] = field(default_factory=dict)  # the server's environment (manage.py commands run with it)
    pid: int = 0  # the uvicorn process (SIGUSR1: every thread's stack to server.log)


@pytest.fixture(scope="session")
def live_server_process() -> Iterator[LiveServer]:
    """A fresh `<name>_e2e` database, migrated and loaded, served by uvicorn on a free 127.0.0.1 port."""
    database_url = os.environ.get("DATABASE_URL", "")
    if not re.match(r"^postgres(ql)?(\+\w+)?://", database_url):
        pytest.skip(
            "end-to-end tests need PostgreSQL: set DATABASE_URL=postgres://USER@HOST:PORT/NAME "
            f"(got {database_url or 'nothing'}; `make test` sets it)"
        )
    if not Path(CHROMIUM).exists():
        pytest.skip(f"end-to-end tests need Debian's chromium at {CHROMIUM} (apt-get install chromium; .ci/run does it)")

    RESULTS.mkdir(parents=True, exist_ok=True)
    log = RESULTS / "server.log"
    log.write_text("")
    mail_dir = RESULTS / "mail"
    shutil.rmtree(mail_dir, ignore_errors=True)
    mail_dir.mkdir(parents=True)

    e2e_database = e2e_database_name(database_url)
    e2e_database_url = with_database(database_url, e2e_database)
    recreate_database(database_url, e2e_database)

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "DJANGO_SETTINGS"))}
    env.update(
        DJANGO_SETTINGS_MODULE="campaigns_app.settings",
        DATABASE_URL=e2e_database_url,
        DEBUG="1",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SITE_URL=url,
        CHANNEL_PREFIX=f"refit-e2e-{database_name(database_url)}",
        PYTHONUNBUFFERED="1",
        REFIT_THREAD_DUMPS="1",
    )
    if "EMAIL_FILE_PATH" in (REPO / "campaigns_app" / "settings.py").read_text():
        env.update(EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend", EMAIL_FILE_PATH=str(mail_dir))
    else:  # settings cannot point the file backend anywhere: mail goes to the console, i.e. server.log
        env["EMAIL_BACKEND"] = "django.core.mail.backends.console.EmailBackend"
    if os.environ.get("REDIS_URL"):
        env["REDIS_URL"] = with_redis_db(os.environ["REDIS_URL"], e2e_redis_db(os.environ["REDIS_URL"]))
    else:
        env.pop("REDIS_URL", None)

    manage(env, "migrate", "--noinput", log=log)
    manage(env, "load_systems", log=log)

    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "campaigns_app.asgi:application", "--host", "127.0.0.1",
             "--port", str(port), "--no-access-log", "--timeout-graceful-shutdown", "3"],
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    try:
        wait_until_answering(process, url + "/", log, SERVER_START_TIMEOUT)
        yield LiveServer(url=url, database_url=e2e_database_url, mail_dir=mail_dir, log=log, env=env, pid=process.pid)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


@pytest.fixture(scope="session")
def live_url(live_server_process: LiveServer) -> str:
    return live_server_process.url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's chromium through Playwright's sync API (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def output_dir(request: pytest.FixtureRequest) -> Path:
    """test-results/e2e/<test name>/, emptied at the start of the test."""
    folder = RESULTS / re.sub(r"[^\w.-]+", "_", request.node.name)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


PHONE_WIDTH = 390


def assert_no_sideways_scroll(page: object, what: str = "") -> None:
    """The page is no wider than the viewport (document.documentElement.scrollWidth ≤ window.innerWidth): nothing makes
    a player scroll sideways. A failure names the elements reaching past the viewport's right edge."""
    width, viewport, wide = page.evaluate(  # type: ignore[attr-defined]
        """() => {
          const w = window.innerWidth, out = [];
          for (const el of document.querySelectorAll('body *')) {
            const r = el.getBoundingClientRect();
            if (r.right > w + 1 && r.width > 0) out.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}` +
              `${typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : ''} → ${Math.round(r.right)}px`);
          }
          return [document.documentElement.scrollWidth, w, out.slice(0, 8)];
        }"""
    )
    assert width <= viewport, (
        f"{what or page.url}: the page is {width}px wide in a {viewport}px viewport; too wide: {wide}")  # type: ignore[attr-defined]


@pytest.fixture
def screenshot(output_dir: Path) -> Callable[..., Path]:
    """`screenshot(page, "03-player1-created")` → test-results/e2e/<test>/03-player1-created.png (full page) and
    03-player1-created-390.png (the same page at phone width, then back), each checked by assert_no_sideways_scroll,
    then ``check_accessibility(page, name)``: every page a test photographs is also checked with axe at 1280 and 390 px."""

    def take(page: object, name: str) -> Path:
        path = output_dir / f"{name}.png"
        page.wait_for_load_state("load")  # type: ignore[attr-defined]  # its stylesheets apply before it is measured
        page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
        assert_no_sideways_scroll(page, name)
        size = page.viewport_size  # type: ignore[attr-defined]
        if size and size["width"] != PHONE_WIDTH:
            page.set_viewport_size({"width": PHONE_WIDTH, "height": 844})  # type: ignore[attr-defined]
            try:
                page.wait_for_timeout(100)  # type: ignore[attr-defined]  # refit.js re-marks wide tables on resize
                page.screenshot(path=str(output_dir / f"{name}-{PHONE_WIDTH}.png"), full_page=True)  # type: ignore[attr-defined]
                assert_no_sideways_scroll(page, f"{name} at {PHONE_WIDTH}px")
            finally:
                page.set_viewport_size(size)  # type: ignore[attr-defined]
        check_accessibility(page, name)
        return path

    return take


# --- accessibility (axe-core, vendored: tests/e2e/vendor/README.md) ----------------------------------------------------

AXE_FILE = Path(__file__).resolve().parent / "vendor" / "axe-core-4.14.1.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]  # WCAG 2.1 AA
AXE_FAILING_IMPACTS = ("serious", "critical")
AXE_WIDTHS = (1280, 390)


@functools.cache
def axe_source() -> str:
    return AXE_FILE.read_text(encoding="utf-8")


def axe_violations(page: object) -> list[dict[str, object]]:
    """axe-core's WCAG 2.1 AA violations on the page as it is now (all impacts), injected from the vendored file."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):  # type: ignore[attr-defined]
        page.evaluate(axe_source() + "\n;true")  # type: ignore[attr-defined]
    result = page.evaluate(  # type: ignore[attr-defined]
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})"
        ".then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: n.failureSummary || ''}))})))",
        AXE_TAGS,
    )
    return list(result)


def describe_violations(violations: list[dict[str, object]], limit: int = 6) -> str:
    """One readable block per violation: rule id, impact, what it asks, and the first nodes with axe's summary."""
    lines = []
    for v in violations:
        nodes = list(v["nodes"])  # type: ignore[call-overload]
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']} — {len(nodes)} node(s)")
        for node in nodes[:limit]:
            summary = " ".join(str(node["summary"]).split())
            lines.append(f"    {node['target']}: {summary[:300]}")
        if len(nodes) > limit:
            lines.append(f"    … and {len(nodes) - limit} more")
    return "\n".join(lines)


# Every table box's "Scroll sideways" hint agrees with whether it scrolls at the current width (or the page does not
# load refit-forms.js, which adds them).
TABLES_MARKED = """() => !document.querySelector('script[src*="refit-forms"]') ||
  [...document.querySelectorAll('.table-wrap, .table-scroll')].every(function (wrap) {
    var hint = wrap.previousElementSibling;
    return !!(hint && hint.classList.contains('scroll-hint')) === (wrap.scrollWidth > wrap.clientWidth + 1);
  })"""


def check_accessibility(page: object, label: str, widths: tuple[int, ...] = AXE_WIDTHS) -> None:
    """Fail the test if axe-core (WCAG 2.1 AA rules) finds a serious or critical violation on ``page``.

    Call it on every page state a test reaches (the ``screenshot`` fixture already does, for every picture): the page
    is checked at each width of ``widths`` (default 1280 and 390 px: the viewport is resized, checked, and put back),
    as it is now — open forms, confirmations and live updates included. ``label`` names the state in the failure
    message ("12-player1-confirm-attack"). Moderate and minor findings do not fail. A page whose context has JavaScript
    disabled cannot run axe: it is skipped (its HTML is the same as the scripted page's, checked elsewhere).

    The failure lists, per width, each violated rule with its impact, its help text and the first offending nodes
    (CSS selector and axe's "Fix any of the following" summary).
    """
    page.add_script_tag(content="window.__refitScripted = true")  # type: ignore[attr-defined]
    if not page.evaluate("() => window.__refitScripted === true"):  # type: ignore[attr-defined]
        return  # JavaScript is disabled in this context: the page's scripts (and axe's timers) never run
    original = page.viewport_size or DESKTOP  # type: ignore[attr-defined]
    failures = []
    try:
        for width in widths:
            if original["width"] != width or width != widths[0]:
                page.set_viewport_size({"width": width, "height": original["height"] if width >= 800 else 844})  # type: ignore[attr-defined]
                page.wait_for_timeout(150)  # type: ignore[attr-defined]
            found = [v for v in axe_violations(page) if v["impact"] in AXE_FAILING_IMPACTS]
            if found:
                failures.append(f"at {width} px:\n{describe_violations(found)}")
    finally:
        page.set_viewport_size(dict(original))  # type: ignore[attr-defined]
        # refit-forms.js marks the tables that scroll 50 ms after a resize, and a hint it adds or drops moves what is
        # below it: a click right after would land where an element was (a run once clicked beside "Verify the dice")
        page.wait_for_function(TABLES_MARKED, polling=50)  # type: ignore[attr-defined]
    if failures:
        pytest.fail(f"accessibility ({label}, {page.url}): serious or critical axe-core violations\n"  # type: ignore[attr-defined]
                    + "\n".join(failures), pytrace=False)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


# --- the players -------------------------------------------------------------------------------------------------------

PASSWORD = "correct-horse-battery-staple-42"
TIMEOUT_MS = 20_000
DESKTOP = {"width": 1280, "height": 900}

# Run in every page before its own scripts. htmx sets xhr.onload and then calls send(): the wrapper counts the request
# until its onload has run (the response swapped), and while window.__refitHold is on it keeps that onload for
# window.__refitRelease() — as a slow network or a busy browser would.
PAGE_INSTRUMENTS = """
(function () {
  var send = XMLHttpRequest.prototype.send;
  window.__refitPending = 0;
  window.__refitHold = false;
  window.__refitHeld = [];
  window.__refitRelease = function () {
    var held = window.__refitHeld;
    window.__refitHeld = [];
    held.forEach(function (run) { run(); });
    return held.length;
  };
  XMLHttpRequest.prototype.send = function (body) {
    var xhr = this, onload = xhr.onload, loaded = false, counted = true;
    window.__refitPending += 1;
    function done() { if (counted) { counted = false; setTimeout(function () { window.__refitPending -= 1; }, 0); } }
    if (onload) {
      xhr.onload = function (event) {
        var self = this;
        loaded = true;
        if (window.__refitHold) {  // held: no longer pending for settle(); processed by __refitRelease()
          window.__refitHeld.push(function () { onload.call(self, event); });
          done();
        } else {
          try { onload.call(self, event); } finally { done(); }
        }
      };
    }
    xhr.addEventListener("loadend", function () { if (!loaded) done(); });
    return send.call(this, body);
  };
})();
"""


@dataclass
class Player:
    side: str  # "german" / "canadian"
    name: str
    context: object
    page: object
    frames: list[str] = field(default_factory=list)  # websocket frames this player's page received, in order
    actions: list[str] = field(default_factory=list)  # what the test did as this player, for the failure report


def server_state(server: LiveServer, output_dir: Path) -> None:
    """What the server was doing when a test failed: its database sessions (zz-database.txt: state, wait, how long
    in a transaction, the last statement) and every thread's stack (appended to server.log)."""
    import psycopg

    try:
        with psycopg.connect(server.database_url, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pid, state, wait_event_type, wait_event, now() - xact_start, left(query, 200) "
                "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall()
        (output_dir / "zz-database.txt").write_text("\n".join(" | ".join(map(str, row)) for row in rows) + "\n")
    except Exception as error:  # noqa: BLE001 — the report says why it has no sessions
        (output_dir / "zz-database.txt").write_text(f"no sessions: {error!r}\n")
    if server.pid:
        with server.log.open("a") as out:
            out.write(f"--- thread stacks after {output_dir.name} failed ---\n")
        os.kill(server.pid, signal.SIGUSR1)


@pytest.fixture
def new_player(browser: object, live_url: str, output_dir: Path, request: pytest.FixtureRequest,
               live_server_process: LiveServer) -> Iterator[Callable[[str], Player]]:
    """``new_player("german")``: a player of that side (not signed up yet) in a browser context of its own."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    run = secrets.token_hex(3)
    made: list[Player] = []

    def make(side: str) -> Player:
        context = browser.new_context(base_url=live_url, viewport=DESKTOP)  # type: ignore[attr-defined]
        context.set_default_timeout(TIMEOUT_MS)
        context.add_init_script(PAGE_INSTRUMENTS)
        page = context.new_page()
        player = Player(side=side, name=f"{side[:3]}-{run}", context=context, page=page)

        def on_websocket(ws: object) -> None:
            ws.on("framereceived", lambda payload: player.frames.append(  # type: ignore[attr-defined]
                payload if isinstance(payload, str) else payload.decode("utf-8", "replace")))

        page.on("websocket", on_websocket)
        made.append(player)
        return player

    try:
        yield make
    finally:
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            for player in made:
                try:
                    player.page.screenshot(path=str(output_dir / f"zz-failure-{player.side}.png"), full_page=True)  # type: ignore[attr-defined]
                    (output_dir / f"zz-failure-{player.side}.html").write_text(player.page.content())  # type: ignore[attr-defined]
                except Exception as error:  # a page that crashed still gets its frames and actions written
                    (output_dir / f"zz-failure-{player.side}.html").write_text(f"no page: {error!r}")
                (output_dir / f"zz-frames-{player.side}.txt").write_text("\n\n".join(player.frames))
                (output_dir / f"zz-actions-{player.side}.txt").write_text("\n".join(player.actions))
            server_state(live_server_process, output_dir)
        for player in made:
            player.context.close()  # type: ignore[attr-defined]


def hold_responses(player: Player) -> None:
    """From now on the player's page receives htmx responses but does not process them until release_responses."""
    player.page.evaluate("window.__refitHold = true")  # type: ignore[attr-defined]


def release_responses(player: Player) -> int:
    """Process the held responses now, in order; how many there were."""
    return int(player.page.evaluate("window.__refitHold = false, window.__refitRelease()"))  # type: ignore[attr-defined]


# --- playing the live page ---------------------------------------------------------------------------------------------

def sign_up(page: object, username: str) -> None:
    """Fill and submit the sign-up form the page is on."""
    page.fill("input[name=username]", username)  # type: ignore[attr-defined]
    page.fill("input[name=email]", f"{username}@example.test")  # type: ignore[attr-defined]
    page.fill("input[name=password1]", PASSWORD)  # type: ignore[attr-defined]
    page.fill("input[name=password2]", PASSWORD)  # type: ignore[attr-defined]
    page.locator("main form").get_by_role("button", name="Sign up").click()  # type: ignore[attr-defined]


def signed_up(player: Player) -> None:
    """The player signs up (a new account) and lands on My campaigns."""
    from playwright.sync_api import expect

    player.page.goto("/accounts/signup/")  # type: ignore[attr-defined]
    sign_up(player.page, player.name)
    expect(player.page).to_have_url(re.compile(r"/campaigns/$"))  # type: ignore[attr-defined]


def fill_lost_values(page: object) -> None:
    """Type RR's values lost in the rule text on the create page (TEST DATA, tests/campaigns_app/lost_test_values.py)."""
    from tests.campaigns_app.lost_test_values import RR, post_fields

    for name, value in post_fields(RR).items():
        page.locator(f'input[name="{name}"]').fill(value)  # type: ignore[attr-defined]


def create_campaign(player: Player, live_url: str, name: str, pace: str = "") -> tuple[str, str]:
    """The player signs up and creates an RR campaign on its side (``pace``: hours per action, "" none): the
    campaign's path and the invitation link."""
    from playwright.sync_api import expect

    player.page.goto("/accounts/signup/")  # type: ignore[attr-defined]
    sign_up(player.page, player.name)
    expect(player.page).to_have_url(re.compile(r"/campaigns/$"))  # type: ignore[attr-defined]
    player.page.goto("/campaigns/new/?system=rr")  # type: ignore[attr-defined]
    expect(player.page.locator("select[name=system]")).to_have_value("rr")  # type: ignore[attr-defined]
    player.page.fill("input[name=name]", f"{name} {player.name}")  # type: ignore[attr-defined]
    player.page.locator(f"input[name=side][value={player.side}]").check()  # type: ignore[attr-defined]
    fill_lost_values(player.page)
    if pace:
        player.page.locator("select[name=pace]").select_option(pace)  # type: ignore[attr-defined]
    player.page.get_by_role("button", name="Create campaign").click()  # type: ignore[attr-defined]
    expect(player.page).to_have_url(re.compile(r"/campaigns/[A-Za-z0-9_-]+/invite/$"))  # type: ignore[attr-defined]
    campaign_path = re.sub(r"invite/$", "", player.page.url.removeprefix(live_url))  # type: ignore[attr-defined]
    return campaign_path, str(player.page.locator("#invite-link").input_value())  # type: ignore[attr-defined]


def join_campaign(player: Player, link: str, live_url: str, campaign_path: str) -> None:
    """The player opens the invitation link, signs up from it and takes the free side: its live page."""
    from playwright.sync_api import expect

    side = player.side.capitalize()
    player.page.goto(link)  # type: ignore[attr-defined]
    expect(player.page.locator("main")).to_contain_text(f"invites you to play the {side} side")  # type: ignore[attr-defined]
    player.page.get_by_role("link", name="Sign up to join").click()  # type: ignore[attr-defined]
    sign_up(player.page, player.name)
    expect(player.page.locator("#join-button")).to_have_text(f"Take the {side} side")  # type: ignore[attr-defined]
    player.page.locator("#join-button").click()  # type: ignore[attr-defined]
    expect(player.page).to_have_url(live_url + campaign_path)  # type: ignore[attr-defined]


def history_text(page: object, campaign_path: str) -> str:
    """The whole history the page's player may see, every page from the oldest, as one line of text (the history is
    paged: its default page is the newest)."""
    page.goto(campaign_path + "history/?page=1")  # type: ignore[attr-defined]
    texts: list[str] = []
    for _ in range(200):  # bounded: 200 pages of 50 events
        texts.append(" ".join(str(page.locator("main").inner_text()).split()))  # type: ignore[attr-defined]
        newer = page.locator('a[rel="next"]')  # type: ignore[attr-defined]
        if newer.count() == 0:
            break
        page.goto(campaign_path + "history/" + str(newer.first.get_attribute("href")))  # type: ignore[attr-defined]
    return " ".join(texts)


def settle(page: object) -> None:
    """Wait until the page has loaded (its stylesheets too: a width measured before they apply is the unstyled page's,
    seen once on a busy machine as a 1,113 px card form at 390 px) and processed the response of every htmx request
    it sent."""
    page.wait_for_load_state("load")  # type: ignore[attr-defined]
    page.wait_for_function("() => window.__refitPending === 0 && !document.querySelector('.htmx-request')")  # type: ignore[attr-defined]


def click(page: object, button: object, what: str) -> None:
    """Click ``button``, once more if the first click timed out on a starved browser (see ``act_twice``)."""
    act_twice(page, button, "click", what)


def check(page: object, box: object, what: str) -> None:
    """Check the radio button or checkbox ``box``, once more if the first try timed out on a starved browser."""
    act_twice(page, box, "check", what)


def act_twice(page: object, target: object, action: str, what: str) -> None:
    """Do ``action`` ("click" or "check") on ``target``. Before either Playwright waits for two painted frames to see
    the element stand still; a browser starved of CPU on a busy machine can paint none for the whole timeout while the
    page itself is fine (CI, twice: "waiting for element to be visible, enabled and stable", nothing after, for 20 s;
    once on a button, once on a results form's radio button of the page that had just received the opponent's entry).
    Then say so on stderr, with what the page reports (its visibility, the element enabled), bring the page to the
    front and try once more: an element that really cannot be used fails the second time."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        getattr(target, action)()
        return
    except PlaywrightTimeout:
        pass
    try:
        enabled = target.is_enabled(timeout=2_000)  # type: ignore[attr-defined]
        shown = page.wait_for_function(  # type: ignore[attr-defined]
            "() => document.visibilityState + (document.hasFocus() ? ', focused' : ', not focused')",
            polling=100, timeout=2_000).json_value()
        state = f"visible={target.is_visible()} enabled={enabled} page={shown}"  # type: ignore[attr-defined]
    except PlaywrightError as error:
        state = f"the page did not answer either ({error.message.splitlines()[0]})"
    print(f"e2e: {what}: the {action} timed out once, {state}; trying again", file=sys.stderr)
    page.bring_to_front()  # type: ignore[attr-defined]
    getattr(target, action)()


def submit(player: Player, opponent: Player, button: object, what: str) -> None:
    """Click a button of a phase form, wait for the server's answer and for the opponent's page to get its live update."""
    frames_before = len(opponent.frames)
    # the answer's wait starts here: long enough for a click tried twice (click) and the server's answer
    with player.page.expect_response(lambda r: "/phase/" in r.url or "/chit" in r.url,  # type: ignore[attr-defined]
                                     timeout=3 * TIMEOUT_MS) as answer:
        click(player.page, button, f"{player.side}: {what}")
    assert answer.value.status < 500, f"{player.side}: {what} → HTTP {answer.value.status}"
    settle(player.page)
    player.actions.append(what)
    deadline = time.monotonic() + 3.0
    while len(opponent.frames) == frames_before and time.monotonic() < deadline:
        opponent.page.wait_for_timeout(50)  # type: ignore[attr-defined]
    settle(opponent.page)


def eyebrow(page: object) -> str:
    """The step panel's "Rule 2.512 · …" line ('' when the panel shows no rule step)."""
    found = page.locator("#step-panel .step-eyebrow")  # type: ignore[attr-defined]
    return " ".join(str(found.text_content()).split()) if found.count() else ""


def at_rule(ref: str) -> Callable[[Player], bool]:
    return lambda p: eyebrow(p.page).startswith(f"Rule {ref}")


def visible(page: object, selector: str) -> object | None:
    found = page.locator(selector)  # type: ignore[attr-defined]
    return found.first if found.count() and found.first.is_visible() else None


def answer_needs(player: Player, opponent: Player, values: dict[str, str] | None = None) -> bool:
    """Type the first value the page asks for (a SAN, or a table value lost in the rule text); True if one was asked."""
    form = visible(player.page, "#step-panel .need-form")
    if form is None:
        return False
    need_id = str(form.locator("input[name=need]").input_value())  # type: ignore[attr-defined]
    kind = str(form.locator("input[name=input]").input_value())  # type: ignore[attr-defined]
    if kind == "fact":
        form.locator("input[name=value][value=no]").check()  # type: ignore[attr-defined]
        value = "no"
    else:
        value = (values or {}).get(need_id, "")
        if not value:
            examples = form.locator("q")  # type: ignore[attr-defined]
            value = str(examples.first.inner_text()) if examples.count() else "1"
        form.locator("input[name=value]").fill(value)  # type: ignore[attr-defined]
    submit(player, opponent, form.get_by_role("button", name="Record"), f"supplied {need_id} = {value}")  # type: ignore[attr-defined]
    return True


def take_step(player: Player, opponent: Player) -> bool:
    """One default move for a player: supply a value asked for, or mark the current on-board/assisted step finished.
    False when the player has nothing to do (waiting for the opponent, or a step this helper must not decide)."""
    if answer_needs(player, opponent):
        return True
    done = visible(player.page, "#step-panel #mark-done")
    if done is not None and not visible(player.page, "#step-panel #results-form"):
        submit(player, opponent, done, f"marked {eyebrow(player.page)} finished")
        return True
    return False


def play_until(players: tuple[Player, Player], arrived: Callable[[Player], bool], timeout: float = 120.0,
               step: Callable[[Player, Player], bool] | None = None) -> list[str]:
    """Both players take default moves (``step``, by default ``take_step``: never buying, never choosing a chit) until
    ``arrived`` holds for both pages; returns the rule steps the players marked finished on the way, in order."""
    move = step or take_step
    passed: list[str] = []
    deadline = time.monotonic() + timeout
    while not all(arrived(p) for p in players):
        if time.monotonic() > deadline:
            raise AssertionError(
                f"stuck: {players[0].side} at {eyebrow(players[0].page)!r}, {players[1].side} at {eyebrow(players[1].page)!r}")
        moved = False
        for player, opponent in (players, players[::-1]):
            here = eyebrow(player.page)
            if not arrived(player) and move(player, opponent):
                moved = True
                if here and here not in passed:
                    passed.append(here)
        if not moved:
            players[0].page.wait_for_timeout(150)  # type: ignore[attr-defined]
    return passed


def buy_nothing(player: Player, opponent: Player, ref: str) -> None:
    """At an input step (an order or fortification form, or nothing to buy and a Mark finished button): buy nothing."""
    form = player.page.locator("#order-form, #fort-form")  # type: ignore[attr-defined]
    if form.count():
        submit(player, opponent, form.first.locator("button[name=nothing][value=yes]"), f"nothing at {ref}")
    else:
        submit(player, opponent, player.page.locator("#step-panel #mark-done"), f"{ref} done")  # type: ignore[attr-defined]


def enter_results(player: Player, opponent: Player, cvp: dict[str, int], attacked: dict[str, bool],
                  lvp: dict[str, int] | None = None, *, group: str = "", leaders_lost: dict[str, int] | None = None,
                  winner: str | None = None) -> None:
    """Fill and send the results form — one Map Group's where the CG has several (KGP 8.2) —: each side's CVP, attack,
    LVP where the form asks for it (0 unless given), leaders lost (0 unless given), one unit lost, and the winner
    where the form asks for one."""
    prefix = f"{group}-" if group else ""
    form = player.page.locator(f"#results-form-{group}" if group else "#results-form")  # type: ignore[attr-defined]
    for side, value in cvp.items():
        form.locator(f"#cvp-{prefix}{side}").fill(str(value))
        check(player.page, form.locator(f"input[name=attacked-{side}][value={'yes' if attacked[side] else 'no'}]"),
              f"{player.side}: attacked-{side}")
        lvp_field = form.locator(f"#lvp-{prefix}{side}")
        if lvp_field.count():
            lvp_field.fill(str((lvp or {}).get(side, 0)))
        form.locator(f"#leaders_lost-{prefix}{side}").fill(str((leaders_lost or {}).get(side, 0)))
        form.locator(f"#units_lost-{prefix}{side}").fill("1")
    if winner is not None and form.locator("input[name=winner]").count():
        check(player.page, form.locator(f"input[name=winner][value={winner}]"), f"{player.side}: winner {winner}")
    submit(player, opponent, form.locator("button[type=submit]"),
           f"entered results {cvp} {lvp or ''}{f' on {group}' if group else ''}")


def choose_chit(page: object, chit: str) -> object:
    """Pick a chit and continue: the "This is final" confirmation it shows (not submitted yet)."""
    from playwright.sync_api import expect

    check(page, page.locator(f"#chit-form input[name=chit][value={chit}]"), f"chit {chit}")  # type: ignore[attr-defined]
    click(page, page.locator("#chit-form").get_by_role("button", name="Continue"), f"chit {chit}: Continue")  # type: ignore[attr-defined]
    confirm = page.locator("#chit-confirm")  # type: ignore[attr-defined]
    expect(confirm).to_contain_text(f"Submit {chit.capitalize()}? This is final.")
    return confirm
