"""The embedded default as `make run` serves it, walked by new users: run as a script in a process of its own.

``python tests/embedded/walk.py DIR`` sets the environment `make run` gives (SQLite — a file in DIR instead of
db.sqlite3 — no REDIS_URL and the in-memory channel layer; DEBUG off; the secret key generated into DIR), migrates, loads the systems, and
then, through Django's test client only (real views, middleware and templates): for every CG system two new users sign
up, one creates a campaign (building a CG Card in the card builder's form where the system needs one, typing the values the rule text lost), the other joins it through the invitation
link, and both open every campaign page. Any page that does not answer as a player expects is printed and the script
exits 1. tests/embedded/test_embedded_default.py runs it under `make test`.
"""
from __future__ import annotations

import os
import re
import sys
from io import StringIO
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CARDS = REPO / "tests" / "campaigns_app" / "cards"
PASSWORD = "correct-horse-battery-staple-42"

# The card each system is created with: a system whose rule text leaves its calendar or charts to a CG Card cannot start
# without one (PL 2.5: the bundled example; ER, KGP: the TEST DATA cards). RR starts from the rule text alone; each is
# built in the card builder's form (`card_build_new`), as a player makes a card.
CARD_FILES: dict[str, Path] = {
    "er": CARDS / "er-values-test.yaml",  # typed in the form as tests/rules_engine/card_form_values.py ER_FORM
    "kgp": CARDS / "kgp-values-test.yaml",  # KGP_FORM
    "pl25": REPO / "fixtures" / "cards" / "example-pl25.yaml",
    "phd": CARDS / "phd-test.yaml",  # optional for PHD (C4.2 and C5 print the rest): its TEST DATA through the form too
}
# The players' choices a system leaves without a default (KGP 8.51–.53 which CG; PL 3.2 Redeployment Option).
CHOICES: dict[str, dict[str, str]] = {"kgp": {"setting-kgp_cg": "I"}, "pl25": {"setting-redeployment_option": "A"}}
# The campaign pages both players open, relative to the campaign's URL, and the status each answers with.
PAGES = ["", "invite/", "history/", "fragments/", "rules/", "roster/", "roster.csv", "purchases/",
         "purchases.csv", "dice/", "dice.csv", "dice/statistics/", "verify/", "notes/", "cg-end/"]


def environment(folder: Path) -> None:
    """The environment `make run` gives its server (Makefile: RUN_ENV), pointed at files in ``folder``."""
    for name in ("DATABASE_URL", "REDIS_URL", "STATIC_MANIFEST", "SECRET_KEY", "ALLOWED_HOSTS", "DEBUG", "EMAIL_BACKEND"):
        os.environ.pop(name, None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "campaigns_app.settings"
    os.environ["SECRET_KEY_FILE"] = str(folder / ".secret_key")
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'db.sqlite3'}"  # the embedded default's backend, another file
    os.environ["SITE_URL"] = "http://127.0.0.1:8000"
    os.environ["EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"  # the console's, kept in memory


def create_card(client: object, system_id: str) -> str:
    """A CG Card for ``system_id`` built through the card builder's own form (``card_build_new``), as a player types it:
    PL 2.5 and PHD the fields of the bundled example / TEST DATA card, ER and KGP the TEST DATA values-only cards typed
    field by field (tests/rules_engine/card_form_values.py); its id."""
    from tests.campaigns_app.card_builder import build_card, card_form
    from tests.rules_engine.card_form_values import ER_FORM, KGP_FORM, form_over

    typed = {"er": ER_FORM, "kgp": KGP_FORM}
    if system_id in typed:  # the new-card form, its offered rows replaced by the typed ones
        values = form_over(card_form(system_id), typed[system_id])
    else:  # the form of the bundled example, every field as the builder shows it
        values = card_form(system_id, CARD_FILES[system_id].read_text(encoding="utf-8"))
    response = build_card(client, system_id, values, start={})  # type: ignore[arg-type]
    if response.status_code != 302:
        raise AssertionError(f"{system_id}: the card builder answered {response.status_code}:\n"
                             f"{_problems(response.content.decode())}")
    found = re.fullmatch(r"/cards/([^/]+)/", response["Location"])
    assert found, response["Location"]
    return found.group(1)


def _problems(html: str) -> str:
    """The builder's problems on a refused form: its summary and each field's problem, as the player reads them."""
    found = re.findall(r'<(?:div|p|span|li)[^>]*class="[^"]*(?:problem|builder-summary|builder-error)[^"]*"[^>]*>(.*?)</(?:div|p|span|li)>',
                       html, flags=re.S)
    return "\n".join(t for t in (" ".join(visible_text(f).split()) for f in found) if t)[:3000] or visible_text(html)[:3000]


def sign_up(name: str) -> object:
    from django.test import Client

    client = Client()
    response = client.post("/accounts/signup/", {"username": name, "email": f"{name}@example.test",
                                                 "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302, f"sign-up of {name}: {response.status_code} {re.findall(r"<li>([^<]+)</li>", response.content.decode())}"
    return client


# Words no player should read (issue 9 item 4): the rule text called "the seed", the catalog's and implementers'
# notes, internal keys (snake_case with two underscores or more), "the Axis Side side".
NOT_FOR_PLAYERS = re.compile(
    r"\b(?:in|not in|from) the seed\b|\bthe seed[;:,)]|\bcatalog\b|\[interp|never_on_map|missing_parts|Side side"
    r"|source inconsistency|(?<![/\w])[a-z]+_[a-z]+_[a-z_]+\b(?!\.)")  # a file name (a test card's source) is not a key


def visible_text(html: str) -> str:
    """What a player reads on a page: no scripts, no tags, no attribute values, no YAML view (<pre>, <textarea>)."""
    import html as entities

    text = re.sub(r"<(script|style|pre|textarea)\b.*?</\1>", " ", html, flags=re.S)  # the card's YAML view is YAML
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    return entities.unescape(text)


def check(problems: list[str], what: str, response: object, status: int = 200) -> str:
    code = response.status_code  # type: ignore[attr-defined]
    body = response.content.decode("utf-8", "replace") if hasattr(response, "content") else ""  # type: ignore[attr-defined]
    if code != status:
        problems.append(f"{what}: HTTP {code} (expected {status})\n{body[:1500]}")
    if "Traceback" in body or "URLconf" in body or "DEBUG = True" in body:
        problems.append(f"{what}: a Django debug page")
    if "text/html" in str(response.get("Content-Type", "")):  # type: ignore[attr-defined]
        text = visible_text(body)
        for found in NOT_FOR_PLAYERS.finditer(text):
            start = found.start()
            problems.append(f"{what}: a player reads {found.group(0)!r}: …{' '.join(text[start - 80:start + 80].split())}…")
    return body


def walk(problems: list[str]) -> list[str]:
    """Every system: create, join, open every page. The systems walked."""
    from django.conf import settings

    from campaigns_app import engine
    from campaigns_app.cards.selectors import start_blockers
    from campaigns_app.models import CgSystem
    from tests.campaigns_app.lost_test_values import BY_SYSTEM as LOST_VALUES
    from tests.campaigns_app.lost_test_values import post_fields

    assert not settings.DEBUG and settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
    walked = []
    for cg_system in CgSystem.objects.order_by("id"):
        system_id = cg_system.id
        system = engine.system_of(cg_system)
        creator, joiner = sign_up(f"{system_id}_one"), sign_up(f"{system_id}_two")
        form = {"name": f"Embedded {system_id}", "system": system_id, "side": system.sides[0].id,
                **CHOICES.get(system_id, {})}
        if start_blockers(system) or system_id in CARD_FILES:
            form["card"] = create_card(creator, system_id)
        form |= post_fields(LOST_VALUES.get(system_id, {}))  # the lost values the creator types (issue 9 item 2)
        check(problems, f"{system_id} create page", creator.get(f"/campaigns/new/?system={system_id}"))  # type: ignore[attr-defined]
        response = creator.post("/campaigns/new/", form)  # type: ignore[attr-defined]
        if response.status_code != 302:
            check(problems, f"{system_id} create", response, 302)
            continue
        campaign_url = response["Location"].removesuffix("invite/")
        invite = check(problems, f"{system_id} invitation page", creator.get(response["Location"]))  # type: ignore[attr-defined]
        link = re.search(r'id="invite-link"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*id="invite-link"', invite)
        assert link, f"{system_id}: no invitation link on the invitation page"
        join_path = re.sub(r"^https?://[^/]+", "", link.group(1) or link.group(2))
        check(problems, f"{system_id} join page", joiner.get(join_path))  # type: ignore[attr-defined]
        check(problems, f"{system_id} e-mail settings page", creator.get("/notifications/"))  # type: ignore[attr-defined]
        chosen = creator.post("/notifications/", {"default": "digest"})  # type: ignore[attr-defined]  # "joined": queued
        check(problems, f"{system_id} e-mail settings saved", chosen, 302)
        joined = joiner.post(join_path, {})  # type: ignore[attr-defined]
        if joined.status_code != 302 or joined["Location"] != campaign_url:
            check(problems, f"{system_id} join", joined, 302)
            continue
        pages = [*PAGES, "rules/card.yaml"] if "card" in form else PAGES
        for who, client in (("creator", creator), ("joiner", joiner)):
            for page in pages:
                check(problems, f"{system_id} {who} {campaign_url}{page}", client.get(campaign_url + page))  # type: ignore[attr-defined]
            # the story of a CG Date waits for CG end: a 404 saying so, nothing of the campaign
            check(problems, f"{system_id} {who} story before CG end", client.get(campaign_url + "story/1/"), 404)  # type: ignore[attr-defined]
        at_a_distance(problems, system_id, campaign_url, creator, joiner)
        a_live_page(problems, system_id, campaign_url, creator, joiner)
        if system_id == "rr":
            played_and_conceded(problems, campaign_url, creator, joiner)
        walked.append(system_id)
    return walked


def form_id(body: str, field_id: str | None = None) -> str:
    """The hidden form id a page's form carries (the message form's has its own element id)."""
    pattern = (rf'name="form_id" value="([^"]*)" id="{field_id}"' if field_id
               else r'name="form_id" value="([^"]*)"')
    found = re.search(pattern, body)
    return found.group(1) if found else ""


def at_a_distance(problems: list[str], system_id: str, url: str, creator: object, joiner: object) -> None:
    """Playing at a distance on the embedded default: a message sent, a note sealed and revealed; each reaches the
    opponent's page as a player reads it, and the sealed text does not."""
    where = f"{system_id} at a distance"
    page = check(problems, f"{where}: campaign page", creator.get(url))  # type: ignore[attr-defined]
    message = {"text": f"Good luck on {system_id}!", "form_id": form_id(page, "message-form-id")}
    check(problems, f"{where}: message sent", creator.post(url + "messages/", message), 302)  # type: ignore[attr-defined]
    once = check(problems, f"{where}: message read", joiner.get(url)).count(f"Good luck on {system_id}!")  # type: ignore[attr-defined]
    if not once:
        problems.append(f"{where}: the opponent's page does not show the message")
    check(problems, f"{where}: the same form sent again", creator.post(url + "messages/", message), 302)  # type: ignore[attr-defined]
    again = check(problems, f"{where}: message read again", joiner.get(url)).count(f"Good luck on {system_id}!")  # type: ignore[attr-defined]
    if again != once:
        problems.append(f"{where}: a form sent twice sent the message twice ({once} then {again} times on the page)")
    notes = check(problems, f"{where}: notes page", creator.get(url + "notes/"))  # type: ignore[attr-defined]
    sealed = creator.post(url + "notes/seal/", {"text": "HIP in the woods", "form_id": form_id(notes)})  # type: ignore[attr-defined]
    check(problems, f"{where}: note sealed", sealed, 302)
    if "HIP in the woods" in check(problems, f"{where}: the opponent's notes", joiner.get(url + "notes/")):  # type: ignore[attr-defined]
        problems.append(f"{where}: a sealed note's text reached the opponent")
    check(problems, f"{where}: note revealed", creator.post(url + "notes/1/reveal/", {}), 302)  # type: ignore[attr-defined]
    if "HIP in the woods" not in check(problems, f"{where}: revealed note", joiner.get(url + "notes/")):  # type: ignore[attr-defined]
        problems.append(f"{where}: a revealed note does not reach the opponent")


def a_live_page(problems: list[str], system_id: str, url: str, creator: object, joiner: object) -> None:
    """The creator's live page opens its websocket, as a browser does, then closes it: the joiner's page shows the
    creator online, then offline (who is online — its reads and UPDATEs — on SQLite and the in-memory channel
    layer)."""
    import asyncio

    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from campaigns_app.asgi import application

    where = f"{system_id} live page"
    cookie = f"sessionid={creator.cookies['sessionid'].value}".encode()  # type: ignore[attr-defined]

    def online_shown() -> int:
        return check(problems, f"{where}: the opponent's page", joiner.get(url)).count("presence presence-online")  # type: ignore[attr-defined]

    async def visit() -> tuple[bool, int, int]:
        socket = WebsocketCommunicator(application, f"/ws{url}", headers=[
            (b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000"), (b"cookie", cookie)])
        connected, _ = await socket.connect()
        while_open = await sync_to_async(online_shown)()
        await socket.disconnect()
        return connected, while_open, await sync_to_async(online_shown)()

    before = online_shown()
    connected, while_open, after = asyncio.run(visit())
    if not connected or (before, while_open, after) != (0, 1, 0):
        problems.append(f"{where}: socket {'accepted' if connected else 'refused'}; the opponent's page showed "
                        f"{before}, {while_open}, {after} players online (before, while open, after: 0, 1, 0)")


def played_and_conceded(problems: list[str], url: str, creator: object, joiner: object) -> None:
    """RR played on to its second CG Date's chits (rolls in the dice log, each followed by another event), then
    conceded: the dice log, statistics, story of each CG Date and the archive answer on SQLite as on PostgreSQL."""
    from campaigns_app import services
    from campaigns_app.models import Campaign, Seat
    from tests.campaigns_app.records.test_records_support import play

    public_id = url.strip("/").split("/")[-1]
    play(Campaign.objects.get(public_id=public_id), until_date=1)
    for who, client in (("creator", creator), ("joiner", joiner)):
        for page in ("dice/", "dice/statistics/", "roster/", "history/"):
            check(problems, f"rr {who} {page} after play", client.get(url + page))  # type: ignore[attr-defined]
    seat = Seat.objects.select_related("user").get(campaign__public_id=public_id, side="german")
    services.cg_end_concede(user=seat.user, public_id=public_id)
    for who, client in (("creator", creator), ("joiner", joiner)):
        for page in ("cg-end/", "dice/", "story/1/", "story/2/", "archive.json"):
            check(problems, f"rr {who} {page} after concession", client.get(url + page))  # type: ignore[attr-defined]


def main(folder: Path) -> int:
    environment(folder)
    sys.path.insert(0, str(REPO))
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", "--noinput", verbosity=0)
    call_command("load_systems", verbosity=0)
    problems: list[str] = []
    walked = walk(problems)
    stranger = Client()
    body = check(problems, "an unknown address", stranger.get("/no-such-page/"), 404)
    if "Page not found" not in body:
        problems.append("an unknown address: not the site's own 'Page not found' page")
    check(problems, "a static file", stranger.get("/static/refit.css"))
    sent = StringIO()
    call_command("send_digests", stdout=sent)  # each creator chose a digest: one each, its "joined" line in it
    if sent.getvalue().strip() != f"{len(walked)} digests sent.":
        problems.append(f"send_digests: {sent.getvalue().strip()!r}, expected {len(walked)} digests")
    print(f"walked: {', '.join(walked)}")
    for problem in problems:
        print(f"PROBLEM {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
