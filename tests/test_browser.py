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


def _lobby(page, url, game, kinds, hotseat=False):
    page.goto(url + "/")
    if hotseat:
        page.check("#hotseat")
    page.select_option("#game", game)
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


@pytest.mark.slow
def test_a_whole_krazy_kings_game_against_bots_in_the_browser(server, browser):
    app, url = server
    page = open_page(browser, viewport={"width": 1100, "height": 900})
    _lobby(page, url, "krazy-kings", ["human", "heuristic", "random"])
    page.wait_for_selector("#table:not([hidden]) #hand .card")
    shot(page, "krazy-kings-start")
    moves = 0
    prompts = set()
    deadline = time.time() + 240
    while time.time() < deadline:
        if page.locator("#summary:not([hidden]) h3").count():
            break
        btn = page.locator("#moves button.move")
        if btn.count():
            try:
                if page.locator("#turn.mine").count():
                    prompts.add(page.inner_text("#turn"))
                btn.first.click(timeout=2000)
                moves += 1
                if moves == 3:
                    shot(page, "krazy-kings-midgame")
            except Exception:
                pass
        page.wait_for_timeout(150)
    assert page.locator("#summary h3").inner_text() == "Game over"
    assert moves >= 1
    assert page.locator("#log li").count() > 10
    # the engine's words on the page: the phase's prompt with its rule, the narrated log in the
    # table's seat names (State.prompt, State.narrate_event)
    assert prompts and all("(KK-" in x for x in prompts), prompts
    log = page.locator("#log li").all_inner_texts()
    assert any(x.startswith("Player 1 (you) ") for x in log) and any(" plays " in x for x in log), log[:20]
    shot(page, "krazy-kings-over")
    # the same table on a phone-sized screen, dark
    phone = open_page(browser, viewport={"width": 390, "height": 844})
    phone.goto(page.url)
    phone.wait_for_selector("#players-row .player")
    phone.click("#theme")
    # nothing is wider than the phone's screen (melds and hands wrap)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "krazy-kings-phone-dark")
    assert errors(phone) == []
    phone.close()
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
    # select two adjacent cards if a pair/straight is offered, else play the first move
    # the next human seat to move gets its own hand-over screen (a Stop card led wins its own
    # trick and the same seat leads again: play on until another seat is to move)
    for _ in range(10):
        version = page.evaluate("app.views[app.shownSeat].version")
        page.locator("#moves button.move").first.click()
        wait_js(page, "v => !document.getElementById('handover').hidden"
                " || (app.views[app.shownSeat].version > v && !!document.querySelector('#moves button.move'))",
                arg=version, timeout=30000)
        if page.locator("#handover:not([hidden])").count():
            break
    second = page.locator("#handover-text").inner_text()
    assert second != first
    assert second.startswith(f"Pass the device to {human_to_move()}.")
    shot(page, "hotseat-second-handover")
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
    page.wait_for_selector("#laydown-refusal")
    rnd = t.state.observation(0)["round"]
    assert page.inner_text("#laydown-refusal").startswith(f"those melds are not round {rnd}'s contract")
    assert page.inner_text("#laydown").startswith("Go down: 1 meld chosen")
    shot(page, "crazy-rummy-laydown-refused")
    page.locator("#hand .card").nth(first[0]).click()          # in the chosen meld: not selectable
    assert page.locator("#hand .card.sel").count() == 0 and page.is_disabled("#add-meld")
    page.click("text=Clear melds")
    assert page.inner_text("#laydown").startswith("Go down: 0 melds chosen")
    assert page.inner_text("#status") == "connected" and page.locator("#laydown-refusal").count() == 0
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
    assert page.locator("#laydown-refusal").count() == 0 and page.inner_text("#status") == "connected"
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
    # the links per seat show on the table page (in the lobby, hidden at once by the move)
    page.wait_for_selector("#links:not([hidden])")
    assert page.is_visible("#links")
    page.click("#links summary")
    links = page.locator("#links a.seat-link").all_inner_texts()
    assert [x.split(":")[0] for x in links] == ["Zed", "Alice"] and all("token=" in x for x in links)
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
