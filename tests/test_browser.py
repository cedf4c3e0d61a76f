"""The browser table in a real browser: Debian's headless Chromium driven by Playwright's
Python package (``executable_path``; ``playwright install`` cannot download here). The
server runs in this process on 127.0.0.1. Screenshots go to ``$KRAZY_SCREENSHOTS`` or
``build/screenshots/``."""
import os
import random
import shutil
import socket
import threading
import time

import pytest

pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")

import krazy_core  # noqa: E402
from krazy_core.server.app import create_app  # noqa: E402

from helpers import slow_cases  # noqa: E402

CHROMIUM = os.environ.get("KRAZY_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = os.environ.get("KRAZY_SCREENSHOTS") or os.path.join(os.path.dirname(__file__), "..", "build", "screenshots")
if not os.path.exists(CHROMIUM):
    if os.environ.get("CI"):
        raise RuntimeError(f"no chromium at {CHROMIUM}: .ci/run installs it with apt-get")
    pytest.skip("no chromium (apt-get install chromium)", allow_module_level=True)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    import uvicorn
    app = create_app(str(tmp_path_factory.mktemp("db") / "t.sqlite3"), bot_think_scale=0.1)
    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield app, f"http://127.0.0.1:{port}"
    srv.should_exit = True
    th.join(10)


@pytest.fixture(scope="module")
def browser():
    os.makedirs(SHOTS, exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


ERRORS = {}   # id(page) -> its JavaScript errors and console errors


def open_page(browser, **kw):
    """A page that records its JavaScript errors and failed loads (``errors(page)``): a script
    error shows with its message instead of as a timeout waiting for an element."""
    page = browser.new_page(**kw)
    found = ERRORS[id(page)] = []
    page.on("pageerror", lambda e: found.append(f"pageerror: {e}"))
    page.on("console", lambda m: m.type == "error" and found.append(f"console: {m.text}"))
    return page


def wait_js(page, expression, arg=None, timeout=30000):
    """Poll a JavaScript expression (or a one-argument function with ``arg``) until it is
    truthy: ``page.wait_for_function`` polls with ``eval``, which the page's
    Content-Security-Policy (``script-src 'self'``) refuses; ``page.evaluate`` is not
    affected (the devtools protocol)."""
    deadline = time.time() + timeout / 1000
    while True:
        if page.evaluate(expression, arg) if arg is not None else page.evaluate(expression):
            return
        if time.time() > deadline:
            raise AssertionError(f"never true: {expression}")
        page.wait_for_timeout(50)


def errors(page):
    return ERRORS[id(page)]


def shot(page, name):
    path = os.path.join(SHOTS, name + ".png")
    page.screenshot(path=path, full_page=True)
    return path


def _lobby(page, url, game, kinds, hotseat=False, goto=True, options=None):
    if goto:
        page.goto(url + "/")
    if hotseat:
        page.check("#hotseat")
    page.select_option("#game", game)
    for name, value in (options or {}).items():
        if not page.is_visible(f"#options input[data-option={name}]"):
            page.click("#options-box summary")
        page.fill(f"#options input[data-option={name}]", str(value))
    page.fill("#players", str(len(kinds)))
    page.dispatch_event("#players", "change")
    rows = page.locator("#seats .seat-row")
    for i, k in enumerate(kinds):
        row = rows.nth(i)
        if k == "human":
            row.locator(".kind").select_option("human")
        else:
            row.locator(".kind").select_option("bot")
            row.locator(".bot").select_option(k)
    page.fill("#think", "0.2")
    page.click("#create")


def _cards(page):
    return [int(x) for x in page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")]


def _sent(page):
    """How many messages this page's sockets have sent (counted by the test's listener)."""
    return SENT.get(id(page), 0)


SENT = {}


def _count_sent(page):
    SENT[id(page)] = 0

    def on_ws(ws):
        ws.on("framesent", lambda payload: SENT.__setitem__(id(page), SENT[id(page)] + 1)
              if '"join"' not in str(payload) and '"ping"' not in str(payload) else None)
    page.on("websocket", on_ws)


def _human_turn(page, rng, stats):
    """One decision as a person makes it: tap cards (then a meld or a gap when asked) and
    confirm the move the page names, or tap a phase button. Returns True when it acted."""
    if page.locator("#take-seat").is_visible():
        page.click("#take-seat")
        stats["handovers"] += 1
        return True
    if page.locator("#recap button").count() and page.locator("#recap").is_visible():
        stats["recaps"].append(page.inner_text("#recap"))
        page.click("#recap button")
    prompt = page.evaluate("(document.querySelector('#turn.mine') || {}).textContent")
    if not prompt:
        return False
    stats["prompts"].add(prompt)
    confirm = page.locator("#moves button.confirm")
    n = confirm.count()
    if n:
        confirm.nth(rng.randrange(n)).click(timeout=2000)
        stats["confirmed"] += 1
        return True
    # a reserve card or a numbered gap (a card to put into the hand)
    gaps = page.locator("#hand .gap")
    slots = page.locator("#melds .card[data-slot]")
    playable = page.locator("#hand .card.playable")
    if not gaps.count() and slots.count() and not playable.count():
        slots.first.click()
        gaps = page.locator("#hand .gap")
    n = gaps.count()
    if n and not playable.count():
        gaps.nth(rng.randrange(n)).click(timeout=2000)
        page.locator("#moves button.confirm").first.click(timeout=2000)
        stats["gaps"] += 1
        stats["confirmed"] += 1
        return True
    order = list(range(playable.count()))
    rng.shuffle(order)
    phase = page.locator("#phase button.move")
    # a phase move now and then (draw, take, buy, roll...), always when no card can be played
    n = phase.count()
    if n and (not order or rng.random() < 0.5):
        b = phase.nth(rng.randrange(n))
        stats["phase"].add(b.get_attribute("data-kind", timeout=2000))
        b.click(timeout=2000)
        return True
    for k in order[:6]:
        playable.nth(k).click(timeout=2000)
        if page.locator("#melds .meld.target").count():
            page.locator("#melds .meld.target").first.click()
            stats["targets"] += 1
        confirm = page.locator("#moves button.confirm")
        if not confirm.count() and page.locator("#hand .card.sel").count() == 1:
            # two or three adjacent cards: add a neighbour
            pos = int(page.locator("#hand .card.sel").get_attribute("data-pos")) - 1
            cards = page.locator("#hand .card")
            for q in (pos + 1, pos - 1):
                if 0 <= q < cards.count():
                    cards.nth(q).click()
                    if page.locator("#moves button.confirm").count():
                        break
                    if page.locator("#hand .card.sel").count() != 2:
                        playable.nth(k).click()
            confirm = page.locator("#moves button.confirm")
        n = confirm.count()
        if n:
            b = confirm.nth(rng.randrange(n))
            stats["kinds"].add(b.get_attribute("data-kind", timeout=2000))
            b.click(timeout=2000)
            stats["confirmed"] += 1
            return True
        page.click("#cancel")
    if phase.count():
        phase.first.click()
        return True
    return False


def _play_whole_game(page, rng, limit=600):
    stats = {"prompts": set(), "confirmed": 0, "gaps": 0, "targets": 0, "handovers": 0, "recaps": [],
             "phase": set(), "kinds": set()}
    deadline = time.time() + limit
    while time.time() < deadline:
        if page.locator("#summary:not([hidden]) h3").count():
            return stats
        try:
            acted = _human_turn(page, rng, stats)
        except sync_api.TimeoutError:   # the page changed under a click (a bot moved): look again
            acted = False
        if not acted:
            page.wait_for_timeout(100)
        if page.locator("#refusal:not([hidden])").count() and "stale" not in page.inner_text("#refusal"):
            raise AssertionError("refused: " + page.inner_text("#refusal"))
    raise AssertionError(f"no game over in {limit} s: {stats}")


GAMES = {   # the game, its seats, options for a short whole game
    "krazy-kings": (["human", "heuristic", "random"], {"max_turns": 80}),
    "kings-rummy": (["human", "heuristic", "random"], {"rounds": 2}),
    "contract-rummy": (["human", "heuristic"], {"rounds": 1, "max_turns": 40}),
    "krass-kariert": (["human", "heuristic", "random"], {"chips": 1}),
}


@pytest.mark.parametrize("game,size", [(g, "desktop") for g in GAMES] + [(g, "phone") for g in GAMES])
@slow_cases("kings-rummy-desktop", "contract-rummy-desktop", "krass-kariert-desktop",
            "krazy-kings-phone", "kings-rummy-phone", "contract-rummy-phone")
def test_a_whole_game_against_bots_played_by_tapping_cards(server, browser, game, size):
    """A person's game: cards tapped, a meld or a gap tapped when the page asks, the move the
    page names confirmed; never a protocol message typed. The prompt has its rule, the log
    is the engine's sentences, the game ends with its result and "Play again"."""
    app, url = server
    vp = {"width": 1280, "height": 800} if size == "desktop" else {"width": 390, "height": 844}
    page = open_page(browser, viewport=vp)
    _count_sent(page)
    kinds, options = GAMES[game]
    page.goto(url + "/")
    page.select_option("#speed", "0")
    _lobby(page, url, game, kinds, goto=False, options=options)
    page.wait_for_selector("#table:not([hidden]) #hand .card")
    assert "version" not in page.inner_text("header") and "version" not in page.inner_text("#info")
    shot(page, f"{game}-{size}-start")
    rng = random.Random(7)
    # play up to a card to choose: a screenshot with it selected, then the rest of the game
    first = {"prompts": set(), "confirmed": 0, "gaps": 0, "targets": 0, "handovers": 0, "recaps": [],
             "phase": set(), "kinds": set()}
    for _ in range(400):
        playable = page.locator("#hand .card.playable")
        if page.locator("#turn.mine").count() and playable.count():
            done = False
            for k in range(min(6, playable.count())):
                playable.nth(k).click(timeout=2000)
                page.wait_for_timeout(50)
                done = page.locator("#moves button.confirm").count() > 0
                if done and size == "phone":
                    # a person's thumb: every control at least 44 px, every card of the hand
                    # on the screen (rows, no sideways scroll)
                    small = page.evaluate("""() => [...document.querySelectorAll('#table button, #hand .card')]
                        .filter(e => e.offsetParent).map(e => e.getBoundingClientRect())
                        .filter(r => r.width < 44 || r.height < 44).length""")
                    off = page.evaluate("""() => [...document.querySelectorAll('#hand .card')]
                        .map(e => e.getBoundingClientRect()).filter(r => r.left < 0 || r.right > 390).length""")
                    assert small == 0 and off == 0, (small, off)
                if done:
                    shot(page, f"{game}-{size}-selected")
                page.click("#cancel")
                if done:
                    break
            if done:
                break
        try:
            if page.locator("#turn.mine").count():          # no single card to show: play on
                _human_turn(page, rng, first)
        except sync_api.TimeoutError:
            pass
        page.wait_for_timeout(100)
    stats = _play_whole_game(page, rng)
    assert stats["confirmed"] >= 1, stats
    assert stats["prompts"] and all(__import__("re").search(r"\b[A-Z]{2}-\d+", x) for x in stats["prompts"]), stats["prompts"]
    assert page.locator("#summary h3").inner_text() == "Game over"
    (t,) = [x for x in app.state.server.tables.values() if x.id == page.evaluate("app.table")]
    assert t.state.is_terminal()
    assert page.inner_text("#summary .winner") == page.evaluate("app.views[app.shownSeat].prompt").replace("🃏", "Joker")
    log = page.locator("#log li").all_inner_texts()
    assert len(log) > 5 and any("(you)" in x for x in log), log[:20]
    if game in ("kings-rummy", "contract-rummy"):          # scored rounds: the score sheet
        assert page.locator("#scores tr.total").count() == 1
        totals = page.locator("#scores tr.total td").all_inner_texts()[1:]
        assert [int(x) for x in totals] == list(t.state.observation(0)["totals"])
    if size == "phone":
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, f"{game}-{size}-over")
    # play again: a new table with the same game and seats
    old = page.evaluate("app.table")
    page.click("#play-again")
    wait_js(page, "t => app.table && app.table !== t && !!app.views[0]", arg=old)
    (t2,) = [x for x in app.state.server.tables.values() if x.id == page.evaluate("app.table")]
    assert t2.game.game_id == game and [s["kind"] for s in t2.seats] == [s["kind"] for s in t.seats]
    assert t2.options == t.options
    assert errors(page) == []
    page.close()


def test_hot_seat_hides_each_hand_until_its_owner_takes_the_seat(server, browser):
    app, url = server
    page = open_page(browser, viewport={"width": 900, "height": 800})
    _lobby(page, url, "krass-kariert", ["human", "human", "heuristic"], hotseat=True)
    page.wait_for_selector("#handover:not([hidden])")
    assert page.locator("#hand .card").count() == 0       # no card of any hand is in the page
    assert page.locator("#table").is_hidden()           # no hand shows before the tap
    table = page.evaluate("app.table")
    t = app.state.server.tables[table]

    def human_to_move():
        """The name of the human seat the server waits for (the bot's turn is waited out)."""
        deadline = time.time() + 30
        while time.time() < deadline:
            p = t.state.current_player()
            if p >= 0 and t.seats[p]["kind"] == "human":
                return t.seats[p]["name"]
            time.sleep(0.05)
        raise AssertionError("no human seat came to move in 30 s")

    # the hand-over names the seat the server waits for, from its first paint: the page waits
    # for that seat's own view rather than show another seat's name for a moment (a CI run on
    # a loaded machine read "Player 1" while Player 2 was to move)
    name = human_to_move()
    first = page.locator("#handover-text").inner_text()
    assert first.startswith(f"Pass the device to {name}.")
    shot(page, "hotseat-handover")
    page.click("#take-seat")
    page.wait_for_selector("#hand .card")
    shot(page, "hotseat-krass-kariert-hand")
    # play as a person until the other human seat is to move: its own hand-over screen (a
    # Stop card led wins its own trick and the same seat leads again: play on)
    rng = random.Random(3)
    stats = {"prompts": set(), "confirmed": 0, "gaps": 0, "targets": 0, "handovers": 0, "recaps": [],
             "phase": set(), "kinds": set()}
    deadline = time.time() + 60
    while time.time() < deadline and not page.locator("#handover:not([hidden])").count():
        try:
            if not _human_turn(page, rng, stats):
                page.wait_for_timeout(100)
        except sync_api.TimeoutError:
            pass
    assert page.locator("#handover:not([hidden])").count() and stats["confirmed"] >= 1
    # the hand-over hides the hand that played: no card of it is in the page
    assert page.locator("#hand .card").count() == 0 and page.is_hidden("#table")
    # no per-seat links on a hot-seat table: each would show its hand to whoever holds the device
    assert page.is_hidden("#links") and page.locator("#links a.seat-link").count() == 0
    second = page.locator("#handover-text").inner_text()
    assert second != first
    assert second.startswith(f"Pass the device to {human_to_move()}.")
    shot(page, "hotseat-second-handover")
    page.click("#take-seat")
    page.wait_for_selector("#hand .card")
    # the returning player sees what happened since its last turn (it has not moved yet: all
    # of it), the first player's plays among it, in the engine's sentences
    assert page.is_visible("#recap")
    recap = page.locator("#recap li").all_inner_texts()
    assert any(x.startswith(name + " ") for x in recap), (name, recap)
    shot(page, "hotseat-recap")
    assert errors(page) == []
    page.close()


def _crazy_rummy_ready(app):
    """A two-human Crazy Rummy table where seat 0 can go down now (random moves from a seed)."""
    from krazy_core.games.contract_rummy import best_arrangement
    server = app.state.server
    for seed in range(300):
        t = server.create({"game": "contract-rummy", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": seed,
                           "practice": True, "hotseat": True})
        s = t.state
        rng = random.Random(seed)
        rows = []
        for _ in range(300):
            p = s.current_player()
            labels = {s.action_to_string(a): a for a in s.legal_actions()}
            if p == 0 and "go down" in labels:
                server.store.add_actions(t.id, 0, rows)
                obs = s.observation(0)
                melds = best_arrangement(obs["hand"], obs["round"], as_codes=True)[0]
                return t, melds, t.fresh_secrets["tokens"][0]
            opts = [a for lab, a in labels.items() if lab != "go down"]
            rows.append(t.apply(p, rng.choice(opts)))
            if s.is_terminal():
                break
    raise AssertionError("no seed lets seat 0 go down")


def test_CR_10_a_crazy_rummy_lay_down_by_whole_melds(server, browser):
    app, url = server
    t, melds, token = _crazy_rummy_ready(app)
    page = open_page(browser, viewport={"width": 1100, "height": 900})
    page.goto(f"{url}/#table={t.id}&token={token}")
    page.wait_for_selector("#laydown")
    hand = [int(x) for x in page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")]
    # one meld alone is no contract: the refusal says why and the chosen meld stays (a fresh
    # user's find: it read "1 meld(s) chosen" and the next Add meld silently dropped it), its
    # cards cannot go in a second meld, and the error goes with the next move
    first = [next(k for k, h in enumerate(hand) if h == c) for c in melds[0][:1]]
    used = set()
    for c in melds[0]:
        i = next(k for k, h in enumerate(hand) if h == c and k not in used)
        used.add(i)
        page.locator("#hand .card").nth(i).click()
    page.click("#add-meld")
    page.click("#go-down")
    page.wait_for_selector("#refusal:not([hidden])")
    rnd = t.state.observation(0)["round"]
    assert page.inner_text("#refusal").startswith(f"those melds are not round {rnd}'s contract")
    assert page.inner_text("#laydown").startswith("Go down: 1 meld chosen")
    shot(page, "crazy-rummy-laydown-refused")
    page.locator("#hand .card").nth(first[0]).click()          # in the chosen meld: not selectable
    assert page.locator("#hand .card.sel").count() == 0 and page.is_disabled("#add-meld")
    page.click("text=Clear melds")
    assert page.inner_text("#laydown").startswith("Go down: 0 melds chosen")
    assert page.inner_text("#status") == "connected" and page.is_hidden("#refusal")
    used = set()                                               # a card goes in one meld only
    for j, meld in enumerate(melds):
        for c in meld:
            i = next(k for k, h in enumerate(hand) if h == c and k not in used)
            used.add(i)
            page.locator("#hand .card").nth(i).click()
        if j < len(melds) - 1:          # the last meld's cards stay selected: Go down adds them
            page.click("#add-meld")     # (they were dropped without a word)
    assert page.inner_text("#laydown").startswith(f"Go down: {len(melds) - 1} meld")
    shot(page, "crazy-rummy-melds-chosen")
    page.click("#go-down")
    wait_js(page, "document.querySelectorAll('#melds .meld').length >= %d" % len(melds))
    mine = sorted(sorted(m["cards"]) for m in t.state.observation(0)["melds"] if m["owner"] == 0)
    assert mine == sorted(sorted(m) for m in melds)
    assert t.state.observation(0)["down"][0]
    # numbered from 1 as at the terminal: seat 1's melds are 1-3 (the engine's ids 0-2)
    wait_js(page, "document.querySelectorAll('#melds .meld .tag').length >= %d" % len(melds))
    tags = [x for x in page.locator("#melds .meld .tag").all_inner_texts() if x.startswith("meld ")]
    ids = sorted(m["id"] for m in t.state.observation(0)["melds"])
    assert sorted(x.split(",")[0] for x in tags) == [f"meld {i + 1}" for i in ids]
    assert ids[0] == 0 and tags[0].startswith("meld 1, ")
    assert page.is_hidden("#refusal") and page.inner_text("#status") == "connected"
    assert page.locator("#hand .card.inmeld").count() == 0       # the chosen melds went with the hand
    shot(page, "crazy-rummy-down")
    assert errors(page) == []
    page.close()


def test_the_lobby_seat_rows_follow_the_players_box_as_it_is_typed(server, browser):
    """A fresh user set Players to 2, clicked seat 2's name box and typed "Alice": the blur
    of the Players box rebuilt every row, so the click and the name were lost (scripted, the
    lobby ended with no rows and "2e" in the box).  Rows follow the box as it is typed, are
    added or removed at the end, and the count stays in the game's range."""
    app, url = server
    page = open_page(browser, viewport={"width": 1100, "height": 900})
    page.goto(url + "/")
    page.select_option("#game", "contract-rummy")
    rows = page.locator("#seats .seat-row")
    assert page.get_attribute("#players", "max") == "6"
    page.click("#players")
    page.keyboard.press("Control+A")
    page.keyboard.type("2")
    assert rows.count() == 2                      # while typing, before any blur
    rows.nth(0).locator(".name").fill("Zed")
    rows.nth(1).locator(".kind").select_option("human")
    rows.nth(1).locator(".name").click()          # blurs the Players box
    page.keyboard.type("Alice")
    assert rows.count() == 2 and rows.nth(1).locator(".name").input_value() == "Alice"
    page.fill("#players", "3")                     # a row is added; the others keep their values
    assert rows.count() == 3 and rows.nth(0).locator(".name").input_value() == "Zed"
    page.fill("#players", "2")
    page.fill("#players", "99")
    page.dispatch_event("#players", "change")
    assert page.input_value("#players") == "6" and rows.count() == 6
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    assert rows.count() == 2 and rows.nth(1).locator(".name").input_value() == "Alice"
    page.fill("#think", "0.2")
    page.check("#hotseat")
    page.click("#create")
    # two humans: the hand-over screen comes first, the table behind it (waiting for the
    # table first passed only when it showed for a moment before the hand-over: a CI flake)
    page.wait_for_selector("#take-seat", state="visible")
    page.click("#take-seat")
    page.wait_for_selector("#table:not([hidden])")
    # a hot-seat table lists no seat links (one device holds every seat; a link would show a
    # hand to whoever holds the device); the invite-link test sees the links of a shared table
    page.wait_for_timeout(300)
    assert page.is_hidden("#links") and page.locator("#links a.seat-link").count() == 0
    (t,) = [x for x in app.state.server.tables.values() if x.state.game.game_id == "contract-rummy"
            and [s.get("name") for s in x.seats] == ["Zed", "Alice"]]
    assert [s["kind"] for s in t.seats] == ["human", "human"]
    assert errors(page) == []
    page.close()


def test_an_invite_link_claims_its_seat_and_the_creator_never_holds_its_token(server, browser):
    """Not hot-seat: the creator's page plays its own seat and lists an invite link for the
    other human; the invitee's page opens it, the seat's token is minted then (kept in that
    tab, the code gone from the address bar), and the two pages show each its own seat. No
    token is ever in a WebSocket URL; every response carries the security headers."""
    app, url = server
    creator = open_page(browser, viewport={"width": 1000, "height": 800})
    sockets = []
    creator.on("websocket", lambda ws: sockets.append(ws.url))
    _lobby(creator, url, "krazy-kings", ["human", "human", "random"])
    creator.wait_for_selector("#links:not([hidden])")
    creator.click("#links summary")
    (link,) = creator.locator("#links a.seat-link").all_inner_texts()
    invite_url = link.split(": ", 1)[1]
    assert "invite=" in invite_url and "token=" not in invite_url
    # where the links are shown: they name this machine's own address, and how another device
    # reaches the server
    host = creator.evaluate("location.host")
    note = creator.inner_text("#links .note")
    assert host in note and "krazy serve --host 0.0.0.0" in note and "same network" in note
    wait_js(creator, "app.views[0] && app.views[0].seat === 0")
    assert creator.evaluate("Object.keys(app.tokens)") == ["0"]
    guest = open_page(browser, viewport={"width": 1000, "height": 800})
    guest.on("websocket", lambda ws: sockets.append(ws.url))
    guest.goto(invite_url)
    wait_js(guest, "app.views[-1] === undefined && Object.values(app.views).some(v => v.seat === 1)")
    assert "invite=" not in guest.url
    assert all("token" not in u for u in sockets) and len(sockets) >= 2
    # the creator's page never learned seat 2's token
    assert creator.evaluate("Object.keys(app.tokens)") == ["0"]
    r = guest.request.get(url + "/")
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "no-referrer"
    assert errors(creator) == [] and errors(guest) == []
    creator.close()
    guest.close()


def _kk_turn_with_a_card(browser, url, size, seats):
    """A Krazy Kings table from the lobby at pace Instant, played up to the person's turn
    with a card to play (a roll or a draw the turn begins with played by its button)."""
    page = open_page(browser, viewport=size)
    _count_sent(page)
    for attempt in range(3):
        # a new table when one ends (or stalls) before the person has a card to play: rare,
        # but a game the bot wins first has no such turn
        page.goto(url + "/")
        page.select_option("#speed", "0")
        _lobby(page, url, "krazy-kings", seats, goto=False)
        deadline = time.time() + 40
        while time.time() < deadline:
            if page.evaluate("!!document.querySelector('#turn.mine') && !!document.querySelector('#hand .card.playable')"):
                return page
            phase = page.locator("#phase button.move")
            if page.locator("#turn.mine").count() and phase.count():
                phase.first.click()
            page.wait_for_timeout(150)
    raise AssertionError("no turn with a card to play at three tables in 40 s each")


def test_a_mis_tap_is_undone_and_nothing_is_sent_before_the_move_is_confirmed(server, browser):
    """A card tapped by mistake: it is only selected (the page names the move it would make,
    in the engine's words); Cancel clears it, nothing was sent and the hand is as it was. A
    card that fits no legal move says so with the prompt's rule."""
    app, url = server
    page = _kk_turn_with_a_card(browser, url, {"width": 390, "height": 844}, ["human", "heuristic"])
    table = page.evaluate("app.table")
    t = app.state.server.tables[table]
    hand, sent, history = _cards(page), _sent(page), list(t.state.history())
    card = page.locator("#hand .card.playable").first
    code = int(card.get_attribute("data-card"))
    card.click()
    assert page.locator("#hand .card.sel").count() == 1
    (confirm,) = page.locator("#moves button.confirm").all_inner_texts()
    (move,) = [a for a in page.evaluate("app.views[app.shownSeat].actions") if a.get("cards") == [code]
               and a["kind"] == "play" and (a.get("announce") or len(hand) != 2)]
    assert confirm == "✔ " + move["text"].replace("🃏", "Joker")
    shot(page, "mis-tap-selected")
    page.click("#cancel")
    assert page.locator("#hand .card.sel").count() == 0 and page.locator("#moves button.confirm").count() == 0
    page.wait_for_timeout(300)
    assert _cards(page) == hand and _sent(page) == sent and list(t.state.history()) == history
    # the rules one tap away: the numbered rules, the one the prompt cites marked
    page.click("#rules-open")
    assert page.locator("#rules-list li").count() == 20
    cited = page.locator("#rules-list li.cited").inner_text()
    assert cited.startswith("KK-") and cited.split()[0] in page.inner_text("#turn")
    page.click("#rules-close")
    assert page.is_hidden("#rules")
    # a card no move plays: the page says why, in the engine's words for that card
    stuck = page.locator("#hand .card:not(.playable)")
    if stuck.count():
        code = int(stuck.first.get_attribute("data-card"))
        stuck.first.click()
        say = page.inner_text("#moves .refusal-hint")
        assert say == t.state.explain_card(code).replace("🃏", "Joker") and "(KK-" in say, say
        page.click("#cancel")
    assert _sent(page) == sent and list(t.state.history()) == history
    # the move confirmed is the one sent: the card leaves the hand
    card = page.locator("#hand .card.playable").first
    code = int(card.get_attribute("data-card"))
    card.click()
    page.locator("#moves button.confirm").first.click()
    wait_js(page, "n => (app.views[app.shownSeat].observation.hand || []).length !== n", arg=len(hand))
    assert _sent(page) == sent + 1 and t.state.history()[:len(history)] == history
    assert sorted(_cards(page) + [code]) == sorted(hand) or len(_cards(page)) > len(hand)
    assert errors(page) == []
    page.close()


def test_the_others_moves_are_shown_one_at_a_time_with_the_player_highlighted(server, browser):
    """At a readable pace the bots' moves come one sentence at a time (the board already the
    latest): the sentence under the players, its player's box highlighted, and the log
    grows to the whole of it."""
    app, url = server
    page = open_page(browser, viewport={"width": 1280, "height": 800})
    page.goto(url + "/")
    page.select_option("#speed", "350")
    _lobby(page, url, "krazy-kings", ["human", "heuristic", "heuristic", "heuristic"], goto=False)
    seen, queued, highlighted = [], False, set()
    rng = random.Random(5)
    stats = {"prompts": set(), "confirmed": 0, "gaps": 0, "targets": 0, "handovers": 0, "recaps": [],
             "phase": set(), "kinds": set()}
    deadline = time.time() + 30
    while time.time() < deadline and len(seen) < 4:
        try:
            if page.locator("#turn.mine").count():     # the bots wait for the person
                _human_turn(page, rng, stats)
        except sync_api.TimeoutError:
            pass
        st = page.evaluate("""() => {
            const k = app.shownSeat, log = app.logs[k] || [];
            const now = document.getElementById('now');
            const just = document.querySelector('.player.just .name');
            return {played: app.played[k] || 0, n: log.length, now: now && !now.hidden ? now.innerText : null,
                    just: just ? just.innerText : null};
        }""")
        queued = queued or 0 < st["played"] < st["n"]
        if st["now"] and (not seen or seen[-1] != st["now"]):
            seen.append(st["now"])
            if st["just"]:
                highlighted.add((st["just"].split(" · ")[0].replace(" (you)", ""), st["now"]))
        page.wait_for_timeout(60)
    assert queued and len(seen) >= 2, seen
    # the highlighted player is the one the sentence names (a sentence may name nobody: "the
    # discard pile is shuffled into the stock")
    names = page.evaluate("app.seats.map(s => s.name)")
    assert highlighted and all(name in now for name, now in highlighted
                               if any(n in now for n in names)), highlighted
    page.select_option("#speed", "0")                  # instant: the log catches up at once
    wait_js(page, "app.played[app.shownSeat] === app.logs[app.shownSeat].length")
    assert errors(page) == []
    page.close()


def test_CR_11_a_lay_off_is_a_card_then_its_meld_then_the_named_move(server, browser):
    """Crazy Rummy: a card that fits a meld on the table; tapping it outlines the melds it can
    go on, tapping one names the lay off in the engine's words, and only confirming sends it."""
    from krazy_core import protocol
    app, url = server
    tables = app.state.server
    for seed in range(60):
        t = tables.create({"game": "contract-rummy", "seats": [{"kind": "human"}, {"kind": "human"}],
                               "seed": seed, "practice": True, "hotseat": True})
        s, rng, rows, found = t.state, random.Random(seed), [], None
        for _ in range(800):
            if s.is_terminal():
                break
            p = s.current_player()
            acts = protocol.describe_actions(s)
            offs = [a for a in acts if a["kind"] == "lay_off"]
            if p == 0 and offs and not s.observation(0).get("building_meld"):
                found = offs[0]
                break
            rows.append(t.apply(p, rng.choice([a["id"] for a in acts])))
        if found:
            tables.store.add_actions(t.id, 0, rows)
            break
    assert found, "no seed gives seat 1 a lay off"
    token = t.fresh_secrets["tokens"][0]
    page = open_page(browser, viewport={"width": 1280, "height": 800})
    _count_sent(page)
    page.goto(f"{url}/#table={t.id}&token={token}")
    page.wait_for_selector("#hand .card.playable")
    hand, sent = _cards(page), _sent(page)
    i = hand.index(found["cards"][0])
    page.locator("#hand .card").nth(i).click()
    targets = [int(x) for x in page.locator("#melds .meld.target").evaluate_all("els => els.map(e => e.dataset.meld)")]
    assert found["meld"] in targets
    page.locator(f"#melds .meld.target[data-meld='{found['meld']}']").click()
    confirms = page.locator("#moves button.confirm").all_inner_texts()
    assert ("✔ " + found["text"]).replace("🃏", "Joker") in confirms and all("lay off" in x for x in confirms)
    assert _sent(page) == sent and _cards(page) == hand            # nothing sent yet
    shot(page, "crazy-rummy-lay-off-chosen")
    page.locator("#moves button.confirm", has_text=found["text"].replace("🃏", "Joker")).first.click()
    wait_js(page, "n => (app.views[app.shownSeat].observation.hand || []).length === n - 1", arg=len(hand))
    meld = next(m for m in t.state.observation(0)["melds"] if m["id"] == found["meld"])
    assert found["cards"][0] in meld["cards"] and _sent(page) == sent + 1
    assert errors(page) == []
    page.close()


def test_a_double_click_on_a_move_sends_it_once_and_says_nothing_of_versions(server, browser):
    """A fresh tester's find: a double click on "✔ play ..." sent the move twice and the page
    then showed "stale: the table is at version 4, your message answers 3"."""
    app, url = server
    page = _kk_turn_with_a_card(browser, url, {"width": 1280, "height": 800}, ["human", "random"])
    before = _sent(page)
    page.locator("#hand .card.playable").first.click()
    page.locator("#moves button.confirm").first.dblclick()
    page.wait_for_timeout(800)
    sent = _sent(page) - before
    assert sent == 1, sent
    assert page.locator("#refusal:not([hidden])").count() == 0 or "stale" not in page.inner_text("#refusal")
    assert "version" not in page.inner_text("body").lower()
    assert errors(page) == []
    page.close()


def test_the_lobby_fits_a_phone(server, browser):
    """A fresh tester's find: each bot seat's level menu was ~670 px wide on a 390 px screen,
    so the lobby scrolled sideways and its header was cut off."""
    app, url = server
    page = open_page(browser, viewport={"width": 390, "height": 844})
    page.goto(url + "/")
    page.fill("#players", "4")
    page.dispatch_event("#players", "change")
    rows = page.locator("#seats .seat-row")
    for i in range(1, 4):
        rows.nth(i).locator(".kind").select_option("bot")
    page.wait_for_timeout(200)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "lobby-phone")
    assert errors(page) == []
    page.close()


def _round_7_hand(browser, url, width, height):
    """A page at width x height seated at a 3-player Crazy Rummy table of round 7 (13 cards,
    CR-6), the hand dealt."""
    page = open_page(browser, viewport={"width": width, "height": height})
    page.goto(url + "/")
    _lobby(page, url, "contract-rummy", ["human", "heuristic", "heuristic"], goto=False,
           options={"rounds": 1, "first_round": 7})
    wait_js(page, "document.querySelectorAll('#hand .card').length === 13")
    return page


def test_CR_6_a_phone_shows_all_thirteen_cards_of_a_round_7_hand(server, browser):
    """A fresh user's: on a phone the hand was one row that scrolled sideways with nothing
    saying so (2-3 of 10 cards hidden; round 7 deals 13, CR-6).  Now it wraps: every card
    lies inside the 390-pixel screen, and the page never scrolls sideways."""
    page = _round_7_hand(browser, server[1], 390, 844)
    boxes = page.locator("#hand .card").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })")
    assert len(boxes) == 13 and all(0 <= left and right <= 390 for left, right in boxes), boxes
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "phone-round-7-hand")
    assert errors(page) == []
    page.close()


def test_CR_6_a_desktop_shows_every_card_of_a_big_hand(server, browser):
    """A fresh user's: at 1280x800 a 19-card hand (buys add cards, CR-8) ran off the right
    edge in one row.  The hand wraps: every card of a 25-card hand lies inside the table."""
    page = _round_7_hand(browser, server[1], 1280, 800)
    # twelve more cards drawn into the hand as the page shows it (the layout, not the rules)
    page.evaluate("""() => { const h = document.querySelector('#hand');
        const c = h.querySelector('.card'); for (let i = 0; i < 12; i++) h.append(c.cloneNode(true)); }""")
    width = page.evaluate("document.querySelector('#hand').getBoundingClientRect().right")
    boxes = page.locator("#hand .card").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })")
    assert len(boxes) == 25 and all(0 <= left and right <= width for left, right in boxes), (width, boxes)
    shot(page, "desktop-25-card-hand")
    page.close()
