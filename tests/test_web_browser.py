"""The web table in a real browser: Playwright driving the system's Chromium (Debian's `chromium`;
browsers are never downloaded). Skipped, with the reason, where no Chromium is installed.

One server and one browser serve every test here; each test makes its own rooms. The pages' content
security policy is bypassed so that the tests may wait on script conditions: what the page escapes
is then tested on its own, with no policy behind it (tests/test_web.py checks the policy is sent)."""
from __future__ import annotations

import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from koloda.api import shipped_games  # noqa: E402
from koloda.web.app import make_app  # noqa: E402
from koloda.web.rooms import Rooms  # noqa: E402

CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "", shutil.which("chromium-browser") or "")
                 if p and Path(p).exists()), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt-get install -y chromium)")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT = 60_000            # milliseconds: only to catch a hang
SCRIPTED = '''game: scripted
extends: pony
title: {en: "<script>window.pwned = 1</script><img src=x onerror='window.pwned = 2'>", ru: "<b>x</b>"}
zones:
  hand: {each: player, visible: owner, label: {en: "<img src=x onerror='window.pwned = 3'>hand"}}
'''


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("web")
    rule = folder / "scripted.yaml"
    rule.write_text(SCRIPTED, encoding="utf-8")
    games = {g: g for g in shipped_games()}
    games["scripted"] = str(rule)
    rooms = Rooms(games, folder / "saves")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = make_app(rooms, bot_delay=0.05, allow_upload=True)
    rooms.app = app              # for the replay test, which adds a replay to the server
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(600):
        if server.started:
            break
        time.sleep(0.05)
    yield rooms, f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(60)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US", bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(WAIT)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert errors == []


def _open(page, base, room, seat):
    page.goto(f"{base}/table/{room.id}#{room.tokens[seat]}")
    page.wait_for_selector("#board .pile")


def _hand(page):
    return page.eval_on_selector_all(".pile.mine svg.card", "cs => cs.map(c => c.dataset.card)")


@pytest.mark.parametrize("game, options, seats", [
    ("pony", {"limit": "1"}, ["human", "random"]),
    ("peklo", {"deal_size": "3"}, ["human", "random", "random"]),     # Oh Hell: bids, then tricks
])
def test_a_game_is_played_to_the_end_by_clicking(server, page, game, options, seats):
    rooms, base = server
    room = rooms.create(game, options, seats, seed=11)
    _open(page, base, room, 0)
    for _ in range(500):
        if page.is_visible("#result"):
            break
        if page.is_visible("#ended"):
            page.click("#next")
        elif page.locator("svg.card.choice").count():
            page.locator("svg.card.choice").first.click()
        elif page.locator("#tokens button.token").count():
            page.locator("#tokens button.token").first.click()
        page.wait_for_timeout(60)
    assert page.is_visible("#result") and room.state.is_terminal()
    assert "Winners" in page.inner_text("#result")
    assert len(page.locator("#log li").all()) > 5


def test_two_people_see_their_own_hands_only(server, browser):
    rooms, base = server
    room = rooms.create("pony", {}, ["human", "human"], seed=4)
    pages = []
    for seat in (0, 1):
        context = browser.new_context(locale="en-US", bypass_csp=True)
        p = context.new_page()
        p.set_default_timeout(WAIT)
        _open(p, base, room, seat)
        pages.append(p)
    game, state = room.game, room.state
    hands = [sorted(game.cards.names[c] for c in state.zones[zi]) for zi, z in enumerate(game.layout.zones)
             if z.name == "hand"]
    for seat, p in enumerate(pages):
        assert sorted(_hand(p)) == hands[seat]
        other = p.locator(".pile:not(.mine)", has_text="hand")
        assert other.locator("svg.card.back").count() == 1 and other.locator("[data-card]").count() == 0
        assert not set(p.eval_on_selector_all("[data-card]", "cs => cs.map(c => c.dataset.card)")) & \
            (set(hands[1 - seat]) - set(hands[seat]))
    for p in pages:
        p.context.close()


def _refusing_room(rooms):
    for seed in range(60):
        room = rooms.create("pony", {}, ["human", "human"], seed=seed)
        m = room.message(room.state.current_player(), "en")
        hand = next(p for p in m["table"]["piles"] if p["mine"])["cards"]
        playable = {t["card"] for t in m["moves"]["tokens"] if "card" in t}
        if playable and set(hand) - playable:
            return room
    raise AssertionError("no deal with a card that cannot be played")


def test_a_refused_click_shows_its_reason(server, page):
    rooms, base = server
    room = _refusing_room(rooms)
    _open(page, base, room, room.state.current_player())
    page.locator("svg.card.refusable").first.click()
    page.wait_for_function("document.getElementById('notice').textContent.length > 0")
    assert "is not allowed now" in page.inner_text("#notice")
    assert room.session.moves == []


def test_a_closed_page_opened_again_is_back_in_its_seat(server, browser):
    rooms, base = server
    room = rooms.create("pony", {}, ["human", "human"], seed=8)
    seat = room.state.current_player()
    context = browser.new_context(locale="en-US", bypass_csp=True)
    p = context.new_page()
    p.set_default_timeout(WAIT)
    _open(p, base, room, seat)
    p.locator("#groups button.move").first.click()
    p.wait_for_selector("#log li")
    hand, log = _hand(p), p.inner_text("#log")
    p.close()
    p = context.new_page()
    p.set_default_timeout(WAIT)
    _open(p, base, room, seat)
    p.wait_for_selector("#log li")
    assert _hand(p) == hand and p.inner_text("#log") == log and len(room.session.moves) == 1
    context.close()


def test_a_script_in_a_label_does_nothing(server, page):
    rooms, base = server
    room = rooms.create("scripted", {}, ["human", "random"], seed=2)
    _open(page, base, room, 0)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.wait_for_timeout(300)
    assert page.inner_text("#title").startswith("<script>")
    assert "<img src=x" in page.inner_text("#board")
    assert page.evaluate("window.pwned") is None and dialogs == []
    assert page.locator("#board img, #title script, #title img").count() == 0
    page.goto(f"{base}/?game=scripted")
    page.wait_for_selector("#seats .seat-row")
    assert page.evaluate("window.pwned") is None


def test_a_card_is_placed_on_a_square_by_clicks(server, page):
    """Leopard: the card first, then the square it goes to."""
    rooms, base = server
    room = rooms.create("leopard", {}, ["human", "human"], seed=5)
    seat = room.state.current_player()
    _open(page, base, room, seat)
    page.locator("#tokens button.token", has_text="draw").click()
    page.wait_for_function("document.querySelectorAll('svg.card.choice').length > 0")
    page.locator(".pile.mine svg.card.choice").first.click()
    page.locator(".cell.target").first.click()
    page.wait_for_function("[...document.querySelectorAll('#log li')].some(l => l.textContent.includes('place'))")
    assert "place" in room.game.action_to_string(room.session.moves[-1])


def _drawn(page) -> int:
    return int(page.evaluate("Number(document.body.dataset.drawn || 0)"))


def _click_and_wait(page, locator) -> None:
    before = _drawn(page)
    locator.click()
    page.wait_for_function(f"Number(document.body.dataset.drawn || 0) > {before}")


def test_a_meld_of_three_cards_is_built_by_clicks(server, page):
    """Kun-kin: draw, then `meld`, the kind of meld, each card from the hand, and `end`."""
    rooms, base = server
    room = rooms.create("kunkin", {}, ["human", "human"], seed=0)
    seat = room.state.current_player()
    _open(page, base, room, seat)
    _click_and_wait(page, page.locator("#tokens button.token", has_text="draw"))
    game, spelling = room.game, room.spelling
    meld = next(a for a in room.state.legal_actions()
                if game.action_to_string(a).startswith("meld") and len(spelling.spell(a)) == 6)
    for t in spelling.spell(meld):
        card = spelling.card <= t < spelling.card + game.cards.size
        if card:
            target = page.locator(f".pile.mine svg.card.choice[data-card='{game.cards.names[t - spelling.card]}']")
        else:
            target = page.locator(f"#tokens button.token[data-token='{t}']")
        _click_and_wait(page, target)
    assert room.session.moves[-1] == meld
    assert page.locator("#melds .meld svg.card").count() == 3


def test_labels_follow_the_browsers_language(server, browser):
    rooms, base = server
    room = rooms.create("pony", {}, ["human", "random"], seed=1)
    context = browser.new_context(locale="ru-RU", bypass_csp=True)
    p = context.new_page()
    p.set_default_timeout(WAIT)
    _open(p, base, room, 0)
    assert p.inner_text("#title") == "Пони (кис-кис)" and "рука" in p.inner_text("#board")
    _click_and_wait(p, p.locator("button.lang[data-lang='en']"))
    assert p.inner_text("#title") == "Pony" and "hand" in p.inner_text("#board")
    context.close()


def test_the_lobby_makes_a_room_with_links(server, page):
    rooms, base = server
    page.goto(f"{base}/?game=pony")
    page.wait_for_selector("#seats .seat-row")
    page.select_option("#seats .seat-row:nth-child(2) select", "human")
    page.click("#create")
    page.wait_for_selector("#seat-links a")
    links = page.eval_on_selector_all("#seat-links a", "as => as.map(a => a.getAttribute('href'))")
    assert len(links) == 2 and all("#" in link for link in links)
    page.goto(base + links[1])
    page.wait_for_selector("#board .pile")
    assert "P2 · person (you)" in page.inner_text("#seats")


@pytest.mark.parametrize("game", shipped_games())
def test_a_screenshot_of_a_table(server, page, tmp_path, game):
    """Every shipped game's table, drawn from its layout alone, with the seat's own cards face up (a
    solitaire's, which has no zone of the seat's own, with the shared cards it sees)."""
    rooms, base = server
    from koloda.api import load_spec
    spec = load_spec(game)[0]
    n = spec.default_players
    own = ".pile.mine" if any(z.each_player for z in spec.zones.values()) else ".pile"
    room = rooms.create(game, {}, ["human"] + ["random"] * (n - 1), seed=3)
    _open(page, base, room, 0)
    page.wait_for_timeout(400)
    shot = tmp_path / f"{game}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    assert page.locator(f"{own} svg.card[data-card]").count() > 0


def test_a_replay_is_stepped_through(server, page, tmp_path):
    from click.testing import CliRunner
    from koloda.cli.main import main
    from koloda.web.replays import Replayed
    rooms, base = server
    log = tmp_path / "pony.jsonl"
    assert CliRunner().invoke(main, ["play", "pony", "--seat", "random", "--seat", "random", "--log", str(log),
                                     "--fast", "--seed", "5", "-o", "limit=20"]).exit_code == 0
    replay = Replayed(log)
    rooms.app.state.server.replays[replay.id] = replay
    page.goto(f"{base}/replay/{replay.id}#P1")
    page.wait_for_selector("#board .pile")
    for _ in range(3):
        _click_and_wait(page, page.locator("#forward"))
    assert page.inner_text("#position").strip() == f"3 / {len(replay.moves)}"
    assert page.locator("#log li").count() >= 3 and page.locator(".pile.mine svg.card[data-card]").count() > 0
    assert page.locator(".pile:not(.mine) [data-card]").count() <= 1            # the pile's top alone
    before = _drawn(page)
    page.select_option("#viewer", "all")
    page.wait_for_function(f"Number(document.body.dataset.drawn || 0) > {before}")
    assert page.locator(".pile:not(.mine) [data-card]").count() > 5          # the other hand and the stock
    _click_and_wait(page, page.locator("#deals button.deal").nth(1))
    assert page.inner_text("#position").strip() == f"{replay.deals[1]['at']} / {len(replay.moves)}"


def test_a_rule_file_pasted_in_the_lobby_is_checked_then_offered(server, page):
    rooms, base = server
    page.goto(f"{base}/")
    page.wait_for_selector("#seats .seat-row")
    page.click("#upload summary")
    page.fill("#rule-text", "game: mine\nextends: pony\nzones:\n  hand: {each: player, visible: sometimes}\n")
    page.click("#check")
    page.wait_for_selector("#upload-errors pre")
    assert page.inner_text("#upload-errors").startswith("upload.yaml:4:")
    page.fill("#rule-text", "game: mine\nextends: pony\ntitle: {en: My Pony}\n")
    page.click("#check")
    page.wait_for_function("document.querySelector('#game').selectedOptions[0].textContent === 'My Pony'")
    assert page.inner_text("#upload-errors") == ""
