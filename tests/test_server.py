"""krazy serve: tokens, per-seat views, versions, refusals, hostile messages, persistence,
and a scan of every message of 200 whole games per game for hidden information.

In-process (Starlette's TestClient; no network), bots with no think time."""
import json
import random
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

import krazy_core  # noqa: E402
from krazy_core._state import rng_words  # noqa: E402
from krazy_core.server.app import create_app  # noqa: E402
from krazy_core.server.guards import MAX_MESSAGE  # noqa: E402
from krazy_core.server.tables import Table, build_table, public_view  # noqa: E402
from protocol_helpers import Checker  # noqa: E402

GAMES = krazy_core.available_games()


def _client(path=":memory:"):
    return TestClient(create_app(path, bot_think_scale=0))


def _create(c, game, kinds, **kw):
    """A table; a seed makes it a practice table, several humans a hot-seat one (the creator
    holds every seat's token), unless ``kw`` says otherwise."""
    seats = [{"kind": k} if k == "human" else {"kind": "bot", "bot": k} for k in kinds]
    if "seed" in kw:
        kw.setdefault("practice", True)
    if kinds.count("human") > 1:
        kw.setdefault("hotseat", True)
    r = c.post("/api/tables", json={"game": game, "seats": seats, **kw})
    assert r.status_code == 200, r.text
    return r.json()


def _until(ws, pred, limit=5000):
    for _ in range(limit):
        m = ws.receive_json()
        if pred(m):
            return m
    raise AssertionError("message never came")


def test_create_answers_tokens_only_for_human_seats_and_lists_tables_without_them():
    with _client() as c:
        r = _create(c, "krazy-kings", ["human", "heuristic", "human"], seed=5)
        assert [s["seat"] for s in r["seats"]] == [0, 2] and r["hotseat"] and r["practice"]
        assert all(len(s["token"]) >= 20 and s["token"] in s["url"] for s in r["seats"])
        listing = c.get("/api/tables").text + c.get(f"/api/tables/{r['table']}").text
        for s in r["seats"]:
            assert s["token"] not in listing
        assert c.get("/api/tables/nope").status_code == 404


def test_the_creator_gets_its_own_token_and_an_invite_per_other_human_seat():
    """Not hot-seat: the creator holds its own seat's token and invite links; the invitee's
    token is minted when it claims the invite (once), so the creator never holds it."""
    with _client() as c:
        r = _create(c, "krazy-kings", ["human", "heuristic", "human"], hotseat=False)
        mine, other = r["seats"]
        assert mine["seat"] == 0 and mine["token"] and "invite" not in mine
        assert other["seat"] == 2 and "token" not in other and other["invite"] in other["url"]
        assert not r["hotseat"] and not r["practice"] and "seed" not in r
        tid = r["table"]
        claim = c.post(f"/api/tables/{tid}/claim", json={"invite": other["invite"]})
        assert claim.status_code == 200 and claim.json()["seat"] == 2
        token = claim.json()["token"]
        assert token not in (other["invite"], mine["token"])
        again = c.post(f"/api/tables/{tid}/claim", json={"invite": other["invite"]})
        assert again.status_code == 403 and "claimed" in again.json()["error"]
        # the invite itself is no token
        with c.websocket_connect(f"/ws/{tid}") as w:
            w.send_json({"type": "join", "token": other["invite"]})
            assert w.receive_json()["code"] == "not_your_seat"
        with c.websocket_connect(f"/ws/{tid}") as w:
            w.send_json({"type": "join", "token": token})
            hello = w.receive_json()
            assert hello["type"] == "hello" and hello["seat"] == 2 and hello["hotseat"] is False


@pytest.mark.parametrize("body", [b"not json", b"[1,2]", json.dumps({"game": "poker", "seats": []}).encode(),
                                  json.dumps({"game": "krazy-kings", "seats": [{"kind": "alien"}] * 3}).encode(),
                                  json.dumps({"game": "krazy-kings", "seats": [{"kind": "human"}] * 9}).encode(),
                                  json.dumps({"game": "krazy-kings", "seats": [{"kind": "human"}] * 3,
                                              "options": {"max_turns": -4}}).encode(),
                                  json.dumps({"game": "krazy-kings", "think": 1e9, "seats": [{"kind": "human"}] * 3}).encode(),
                                  b"{" * 100000])
def test_bad_create_requests_are_refused_with_a_reason(body):
    with _client() as c:
        r = c.post("/api/tables", content=body, headers={"content-type": "application/json"})
        assert r.status_code in (400, 413) and r.json()["error"]
        assert c.get("/api/games").status_code == 200   # the server goes on


def test_a_bad_seat_is_named_by_its_index_and_its_seat_number():
    """The lobby shows seats from 1; "seat 0: kind must be human or bot" named the lobby's
    Seat 1 (a fresh user's find): the error names the list index and the seat."""
    with _client() as c:
        r = c.post("/api/tables", json={"game": "krazy-kings", "seats": [{"kind": "human"}, {"kind": "alien"}]})
        assert r.status_code == 400 and r.json()["error"] == "seats[1] (seat 2): kind must be human or bot"
        r = c.post("/api/tables", json={"game": "krazy-kings", "seats": ["human", "bot"]})
        assert r.status_code == 400 and r.json()["error"].startswith('seats[0] (seat 1): a seat is an object such as {"kind": "human"}')
        r = c.post("/api/tables", json={"game": "krazy-kings", "seats": [{"kind": "human", "name": "x" * 41}] * 2})
        assert r.json()["error"] == "seats[0] (seat 1): name must be a string of at most 40 characters"


def test_a_token_acts_only_for_its_seat_and_a_spectator_not_at_all():
    with _client() as c:
        r = _create(c, "krass-kariert", ["human", "human", "human"], seed=3)
        tok = {s["seat"]: s["token"] for s in r["seats"]}
        tid = r["table"]
        with c.websocket_connect(f"/ws/{tid}?token={tok[0]}") as w0, \
                c.websocket_connect(f"/ws/{tid}?token={tok[1]}") as w1, \
                c.websocket_connect(f"/ws/{tid}") as spec:
            assert w0.receive_json()["seat"] == 0 and w1.receive_json()["seat"] == 1
            assert spec.receive_json()["seat"] is None
            u0 = _until(w0, lambda m: m["type"] == "update")
            u1 = _until(w1, lambda m: m["type"] == "update")
            us = _until(spec, lambda m: m["type"] == "update")
            mover = u0["to_move"]
            assert mover in (0, 1, 2)
            # each socket sees its own hand; the spectator none
            assert u0["observation"]["player"] == 0 and u1["observation"]["player"] == 1
            assert "hand" not in us["observation"] and us["actions"] == []
            other = w1 if mover == 0 else w0
            legal = (u0 if mover == 0 else u1)["actions"] or [{"id": 0}]
            other.send_json({"type": "action", "action": legal[0]["id"], "version": 0})
            err = _until(other, lambda m: m["type"] == "error")
            assert err["code"] == "illegal" and "turn" in err["reason"]
            spec.send_json({"type": "action", "action": legal[0]["id"], "version": 0})
            assert _until(spec, lambda m: m["type"] == "error")["code"] == "spectator"
            assert c.get(f"/api/tables/{tid}").json()["version"] == 0   # nothing was applied
        with c.websocket_connect(f"/ws/{tid}?token=forged-token") as bad:
            assert bad.receive_json()["code"] == "not_your_seat"


@pytest.mark.parametrize("game", GAMES)
def test_an_update_carries_the_prompt_the_facts_and_each_events_sentence_in_the_seats_names(game):
    """A frontend draws a turn from the payload alone (issue 29): the prompt of the phase, the
    game's facts, every event's sentence with the table's seat names (its own "(you)")."""
    spec = krazy_core.game.get_spec(game)
    n = spec.min_players if spec.min_players >= 3 else 2
    with _client() as c:
        r = _create(c, game, ["human"] + ["random"] * (n - 1), seed=3)
        tok = r["seats"][0]["token"]
        with c.websocket_connect(f"/ws/{r['table']}?token={tok}") as w:
            hello = _until(w, lambda m: m["type"] == "hello")
            assert hello["name"] == spec.name
            u = _until(w, lambda m: m["type"] == "update" and m["to_move"] == 0 and not m["terminal"])
            t = c.app.state.server.tables[r["table"]]
            names = [f"{s['name']} (you)" if i == 0 else s["name"] for i, s in enumerate(t.seats)]
            assert u["prompt"] == t.state.prompt(0, names)
            assert __import__("re").search(r"\b[A-Z]{2}-\d+\)", u["prompt"])      # with its rule
            assert u["facts"] == json.loads(json.dumps(t.state.facts(0, names)))
            texts = [e["text"] for e in u["events"]]
            assert any(x and names[0] in x for x in texts) or any(x and "Bot" in x for x in texts), texts
            assert all(x is None or isinstance(x, str) for x in texts)
            assert {a["text"] for a in u["actions"]} == {t.state.describe_action(a["id"])["text"] for a in u["actions"]}


def test_the_lobby_offers_the_bot_levels_and_a_level_seat_plays_its_bot():
    """One vocabulary of levels (krazy_core.bots.levels) in the lobby, the terminal and make_bot."""
    from krazy_core.bots.levels import LEVEL_NAMES, LEVELS
    from krazy_core.server.tables import is_search_bot, server_bot
    with _client() as c:
        info = c.get("/api/games").json()
        assert info["bots"][:len(LEVEL_NAMES)] == list(LEVEL_NAMES)
        assert [x["level"] for x in info["levels"]] == list(LEVEL_NAMES)
        r = _create(c, "krazy-kings", ["human", "easy", "hard"])
        seats = c.get(f"/api/tables/{r['table']}").json()["seats"]
        assert [s["bot"] for s in seats] == [None, "easy", "hard"]
    assert server_bot("easy", 1).name == "random" and not is_search_bot("normal")
    assert is_search_bot("hard") == LEVELS["hard"].startswith("ismcts")


@pytest.mark.parametrize("game", ["krazy-kings", "kings-rummy", "contract-rummy", "krass-kariert"])
def test_the_rules_route_gives_the_numbered_rules_as_data(game):
    """``GET /api/games/{id}/rules``: every numbered rule of the game's rules file, in order,
    each its ``spec.rule`` text under its heading; an unknown game is a 404."""
    from krazy_core.game import get_spec
    spec = get_spec(game)
    with _client() as c:
        r = c.get(f"/api/games/{game}/rules")
        assert r.status_code == 200
        j = r.json()
        assert c.get("/api/games/no-such-game/rules").status_code == 404
    prefix = j["rules"][0]["id"].split("-")[0]
    ids = [x["id"] for x in j["rules"]]
    assert ids[:3] == [f"{prefix}-1", f"{prefix}-2", f"{prefix}-3"] and len(ids) >= 15
    assert ids == [f"{prefix}-{i}" for i in range(1, len(ids) + 1)]
    assert all(x["text"] == spec.rule(x["id"]) and x["text"].startswith(f"**{x['id']}") for x in j["rules"])
    assert all(x["section"] for x in j["rules"]) and j["text"] == spec.rules_text() and j["name"] == spec.name


def test_stale_and_illegal_actions_are_refused_with_the_reason_and_change_nothing():
    with _client() as c:
        r = _create(c, "krazy-kings", ["human", "human"], seed=1)
        toks = {s["seat"]: s["token"] for s in r["seats"]}
        u = None
        with c.websocket_connect(f"/ws/{r['table']}?token={toks[0]}") as w0:
            w0.receive_json()
            u = _until(w0, lambda m: m["type"] == "update")
        seat = u["to_move"]
        with c.websocket_connect(f"/ws/{r['table']}?token={toks[seat]}") as w:
            w.receive_json()
            u = _until(w, lambda m: m["type"] == "update")
            a = u["actions"][0]["id"]
            w.send_json({"type": "action", "action": a, "version": u["version"] + 7})
            err = _until(w, lambda m: m["type"] == "error")
            assert err["code"] == "stale" and err["version"] == u["version"]
            illegal = next(i for i in range(109) if i not in {x["id"] for x in u["actions"]})
            w.send_json({"type": "action", "action": illegal, "version": u["version"]})
            err = _until(w, lambda m: m["type"] == "error")
            assert err["code"] == "illegal" and err["reason"]
            # the reason is the player's words with the rule (State.explain), as the table
            # was then; not the engine's message
            st = krazy_core.make("krazy-kings", num_players=2).new_initial_state(seed=1)
            for row in c.app.state.server.tables[r["table"]].log:
                st.apply_action(row[1])
            assert err["reason"] == st.explain(illegal) and "illegal action" not in err["reason"]
            assert c.get(f"/api/tables/{r['table']}").json()["version"] == u["version"]
            w.send_json({"type": "action", "action": a, "version": u["version"]})
            u2 = _until(w, lambda m: m["type"] == "update" and m["version"] == u["version"] + 1)
            assert u2["events"] and u2["first_event"] > 0   # only the new events


HOSTILE = ["not json", "{", "[]", "42", '"text"', json.dumps({"type": 5}), json.dumps({"type": "nuke"}),
           json.dumps({"type": "action"}), json.dumps({"type": "action", "action": "1", "version": 0}),
           json.dumps({"type": "action", "action": 10 ** 30, "version": 0}),
           json.dumps({"type": "action", "action": -1, "version": 0}),
           json.dumps({"type": "laydown", "melds": "x", "version": 0}),
           json.dumps({"type": "action", "action": 1.5, "version": 0}),
           "[" * 3000 + "]" * 3000, "x" * (MAX_MESSAGE + 1), "\ud800" * 10]


def test_malformed_and_oversized_messages_get_an_error_and_the_table_goes_on():
    with _client() as c:
        r = _create(c, "contract-rummy", ["human", "heuristic"], seed=2, think=0)
        tok = r["seats"][0]["token"]
        with c.websocket_connect(f"/ws/{r['table']}?token={tok}") as w:
            w.receive_json()
            for text in HOSTILE:
                w.send_text(text)
                err = _until(w, lambda m: m["type"] == "error")
                assert err["code"] in ("bad_json", "bad_message", "too_large", "illegal", "stale"), (text[:40], err)
            w.send_bytes(b"\x00\xff binary")
            assert _until(w, lambda m: m["type"] == "error")["code"] == "bad_message"
            # still playing: the seat can move
            w.send_json({"type": "sync"})
            u = _until(w, lambda m: m["type"] == "update" and m["to_move"] == 0 and m["actions"])
            w.send_json({"type": "action", "action": u["actions"][0]["id"], "version": u["version"]})
            _until(w, lambda m: m["type"] == "update" and m["version"] > u["version"])


def test_a_flood_is_rate_limited_then_closed_and_the_server_goes_on():
    with _client() as c:
        r = _create(c, "krazy-kings", ["human", "heuristic"], seed=2)
        tok = r["seats"][0]["token"]
        codes, reasons = [], []
        with c.websocket_connect(f"/ws/{r['table']}?token={tok}") as w:
            w.receive_json()
            for _ in range(200):
                w.send_text('{"type":"ping"}')
            try:
                for _ in range(400):
                    m = w.receive_json()
                    codes.append(m.get("code", m["type"]))
                    reasons.append(m.get("reason", ""))
            except Exception:   # the server closed the flooding socket
                pass
        assert "rate_limited" in codes and "pong" in codes
        # the last word before the close says why (the close had an empty reason)
        assert codes[-1] == "rate_limited" and "flooding" in reasons[-1], (codes[-3:], reasons[-1:])
        with c.websocket_connect(f"/ws/{r['table']}?token={tok}") as w:   # reconnect with the token
            assert w.receive_json()["type"] == "hello"
            assert _until(w, lambda m: m["type"] == "update")["seat"] == 0


@pytest.mark.slow
def test_a_whole_game_against_bots_over_the_socket_and_its_messages_match_the_protocol_schema():
    """A reconnect with the token resumes: the full event log comes again."""
    from krazy_core import protocol
    upd = protocol.validator("protocol.json", "server_update")   # jsonschema itself
    obs_c = Checker("observation.json", "krazy-kings")
    ev_c = Checker("event.json", "krazy-kings")
    with _client() as c:
        r = _create(c, "krazy-kings", ["human", "heuristic", "random"], seed=9)
        tok = r["seats"][0]["token"]
        events = []
        with c.websocket_connect(f"/ws/{r['table']}?token={tok}") as w:
            w.receive_json()
            for _ in range(20000):
                m = w.receive_json()
                if m.get("code") == "rate_limited":   # faster than a person: wait, ask again
                    time.sleep(0.2)
                    w.send_json({"type": "sync"})
                    events = []
                    continue
                if m["type"] != "update":
                    continue
                upd.validate(m)
                obs_c.validate(m["observation"])
                for e in m["events"]:
                    ev_c.validate(e)
                assert m["first_event"] == len(events)
                events += m["events"]
                if m["terminal"]:
                    break
                if m["to_move"] == 0 and m["actions"]:
                    w.send_json({"type": "action", "action": m["actions"][-1]["id"], "version": m["version"]})
        assert m["terminal"] and sorted(m["returns"]) in ([0.0, 0.0, 1.0], [0.0, 0.0, 0.0])
        with c.websocket_connect(f"/ws/{r['table']}?token={tok}") as w:
            w.receive_json()
            again = _until(w, lambda m: m["type"] == "update")
            assert again["events"] == events and again["version"] == m["version"]


def _ready_to_go_down(options=None, seeds=300, steps=400):
    """A two-human Crazy Rummy table (random moves from a seed, never going down) at the
    first turn whose player may go down: ``(table, seat, best_arrangement's melds)``."""
    from krazy_core.games.contract_rummy import best_arrangement
    for seed in range(seeds):
        t = build_table({"game": "contract-rummy", "seats": [{"kind": "human"}, {"kind": "human"}],
                         "seed": seed, "practice": True, **({"options": options} if options else {})})
        s = t.state
        rng = random.Random(seed)
        for _ in range(steps):
            if s.is_terminal():
                break
            p = s.current_player()
            labels = {s.action_to_string(a): a for a in s.legal_actions()}
            if "go down" in labels:
                obs = s.observation(p)
                return t, p, best_arrangement(obs["hand"], obs["round"], as_codes=True)[0]
            t.apply(p, rng.choice([a for lab, a in labels.items() if lab != "go down"]))
    raise AssertionError(f"no seat could go down ({options})")


def test_CR_10_whole_meld_laydown_goes_down_in_one_message_and_refusals_say_why():
    """CR-10: the seat names whole melds; the server lays them in the order the rules ask."""
    t, p, melds = _ready_to_go_down()
    s = t.state
    # refusals say why, as the terminal does (the browser showed one sentence for all)
    before = s.to_json()
    refused = {
        "held": [melds[0], list(melds[0])],                 # one card in two melds
        "meld": [melds[0][:2]] + melds[1:],                  # two cards: no meld
        "contract": melds[:1]}                               # one meld: not the contract
    for why, bad in refused.items():
        with pytest.raises(krazy_core.IllegalActionError) as e:
            t.laydown_plan(p, bad)
        msg = str(e.value)
        if why == "held":
            assert msg.startswith("you do not hold ") and msg.endswith("(a card can be in one meld only)")
        elif why == "meld":
            assert "is not a meld (CR-5)" in msg
        else:
            rnd = s.observation(p)["round"]
            assert msg.startswith(f"those melds are not round {rnd}'s contract") and "(CR-4; you chose 1 meld)" in msg
    assert s.to_json() == before
    plan = t.laydown_plan(p, melds)
    for a in plan:
        t.apply(p, a)
    mine = sorted(sorted(m["cards"]) for m in s.observation(p)["melds"] if m["owner"] == p)
    assert mine == sorted(sorted(m) for m in melds)
    assert s.observation(p)["down"][p]
    with pytest.raises(krazy_core.IllegalActionError):
        t.laydown_plan(p, melds)


@pytest.mark.parametrize("first_round", [2, 3, 5, 6, 7])
def test_CR_10_whole_meld_laydown_takes_the_melds_in_any_order(first_round):
    """CR-10: a book and a run (rounds 2, 5, 6) or runs (3, 7) go down whichever the player
    chose first.  A book then a run was refused as "not the contract" while a run then the
    book went down: the run the engine starts is an empty meld, which the check paired with
    the first target, the book (a fresh user's find in the browser)."""
    from itertools import permutations
    t, p, melds = _ready_to_go_down({"first_round": first_round, "rounds": 1}, seeds=400, steps=300)
    s = t.state
    before = s.to_json()
    for order in permutations(melds):
        plan = t.laydown_plan(p, [list(m) for m in order])
        c = s.clone()
        for a in plan:
            c.apply_action(a)
        mine = sorted(sorted(m["cards"]) for m in c.observation(p)["melds"] if m["owner"] == p)
        assert mine == sorted(sorted(m) for m in melds) and c.observation(p)["down"][p]
    assert s.to_json() == before


def test_a_table_persists_and_replays_from_sqlite(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    with _client(db) as c:
        r = _create(c, "kings-rummy", ["human", "random"], seed=4, think=0)
        tok = r["seats"][0]["token"]
        with c.websocket_connect(f"/ws/{r['table']}?token={tok}") as w:
            w.receive_json()
            for _ in range(6):
                u = _until(w, lambda m: m["type"] == "update" and m["to_move"] == 0 and m["actions"])
                w.send_json({"type": "action", "action": u["actions"][0]["id"], "version": u["version"]})
            u = _until(w, lambda m: m["type"] == "update" and m["to_move"] == 0 and m["actions"])
    with _client(db) as c:
        assert c.app.state.server.loaded == 1
        with c.websocket_connect(f"/ws/{r['table']}?token={tok}") as w:
            w.receive_json()
            u2 = _until(w, lambda m: m["type"] == "update")
        assert u2["version"] == u["version"] and u2["observation"] == u["observation"]
    # a log that does not belong to its deal is not served (the server still starts, the
    # other tables load) and stays in the file untouched
    import sqlite3
    with _client(db) as c:
        other = _create(c, "krazy-kings", ["human", "random", "random"], seed=8, think=0)
    con = sqlite3.connect(db)
    con.execute("UPDATE actions SET fingerprint='0000' WHERE n=3 AND table_id=?", (r["table"],))
    con.commit()
    con.close()
    app = create_app(db)
    srv = app.state.server
    assert srv.loaded == 1 and set(srv.tables) == {other["table"]}
    assert "differs" in srv.broken[r["table"]]
    con = sqlite3.connect(db)
    assert con.execute("SELECT COUNT(*) FROM actions WHERE table_id=?", (r["table"],)).fetchone()[0] == u["version"]
    con.close()
    with TestClient(app) as c:
        assert c.get(f"/api/tables/{r['table']}").status_code == 404


def test_the_page_and_its_files_are_served():
    """GET / is the browser table (it was missing from git once: .gitignore's *.html)."""
    with _client() as c:
        r = c.get("/")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        for needle in ('id="game"', 'id="table"', 'id="handover"', "/static/app.js", "/static/style.css"):
            assert needle in r.text
        js = c.get("/static/app.js")
        assert js.status_code == 200 and "function drawTable" in js.text
        assert c.get("/static/style.css").status_code == 200


def test_fingerprints_hash_the_state_with_either_json_encoder():
    """The replay check's fingerprint is the same whether orjson is installed or not, and
    differs when the state does (another deal, one action more)."""
    import hashlib
    from krazy_core.server import tables
    for gid in GAMES:
        s = krazy_core.make(gid).new_initial_state(seed=2)
        seen = set()
        for _ in range(12):
            d = s._to_dict()
            plain = json.dumps(d, separators=(",", ":"), ensure_ascii=False).encode()
            assert tables.dumps_bytes(d) == plain
            fp = tables.fingerprint(s)
            assert fp == hashlib.sha256(plain).hexdigest()[:16] and len(fp) == 16
            seen.add(fp)
            s.apply_action(s.legal_actions()[0])
        assert len(seen) == 12
        assert tables.fingerprint(krazy_core.make(gid).new_initial_state(seed=3)) not in seen


# ---------------------------------------------------------------- the leak scan
def _scan_options(gid, i):
    lo = krazy_core.game.get_spec(gid).min_players
    hi = min(krazy_core.game.get_spec(gid).max_players, 5)
    o = {"num_players": lo + i % (hi - lo + 1)}
    if gid == "contract-rummy" and i % 100:
        o.update(rounds=1, first_round=1 + i % 7)   # whole one-round games; every 100th the full 7
    if gid == "kings-rummy" and i % 100:
        o.update(rounds=1, first_round=1 + i % 11)
    return o


RECENT = 40          # events a mid-game determinization check compares (the end compares all)
SCAN_GAMES = 120     # whole games per game (every table size; Kings and Crazy Rummy's full game every 100th)


@pytest.mark.slow
@pytest.mark.parametrize("gid", GAMES)
def test_no_message_to_a_seat_holds_hidden_cards_stock_order_or_prng_state(gid):
    """Every message the server builds for every seat and the spectators, over 120 whole
    games (bots: heuristic and random): no full-state key (``rng``, ``stock``, ``hands``), no
    PRNG word, and — the strong check, at random positions — each seat's message is the
    same when built from ``determinize(seat)``, a state whose other hands, stock order and
    PRNG were resampled to agree with what the seat saw (the spectator's the same from
    every seat's determinization): the message depends only on what the seat may know."""
    rng = random.Random(7)
    n_msgs = n_det = differs = 0
    for i in range(SCAN_GAMES):
        opts = _scan_options(gid, i)
        n = opts.pop("num_players")
        t = build_table({"game": gid, "options": opts, "seed": 1000 + i, "practice": True,
                         "seats": [{"kind": "bot", "bot": "heuristic" if k % 2 else "random"} for k in range(n)]})
        s = t.state
        sent = [0] * (n + 1)
        while True:
            secret = [str(x) for x in rng_words(s)]           # the PRNG's words, as to_json has them
            for seat in list(range(n)) + [None]:
                k = n if seat is None else seat
                msg = t.message_for(seat, sent[k])
                sent[k] += len(msg["events"])
                n_msgs += 1
                # Kings Rummy's last_round.hands are the hands shown at the round's end (KR
                # scoring, public); every other "hands" key would be the full state's
                shown = msg["observation"] or {}
                text = json.dumps(dict(msg, observation={k: v for k, v in shown.items() if k != "last_round"}))
                assert '"rng"' not in text and '"stock"' not in text and '"hands"' not in text
                text = json.dumps(msg)
                assert not any(w in text for w in secret)
            if rng.random() < 0.02 or s.is_terminal():
                # mid-game the last RECENT events and everything else (observation, prompt,
                # facts, reasons, actions); at the end the whole log
                for seat in range(n):
                    d = s.determinize(seat, seed=rng.getrandbits(32))
                    differs += json.loads(d.to_json())["state"] != json.loads(s.to_json())["state"]
                    for who in (seat, None):
                        first = 0 if s.is_terminal() else max(0, sent[n if who is None else who] - RECENT)
                        real = t.message_for(who, first)
                        t.state = d
                        fake = t.message_for(who, first)
                        t.state = s
                        assert fake == real, (gid, i, who)
                        n_det += 1
            if s.is_terminal():
                break
            seat = s.current_player()
            t.apply(seat, t.bot_move(seat, s.clone()))
    assert n_msgs > SCAN_GAMES * 20 and n_det > SCAN_GAMES and differs > 30


def test_serve_says_how_other_devices_reach_the_table():
    """127.0.0.1: only this computer, and the --host to use; 0.0.0.0: an address to open
    elsewhere (never 127.x), and that anyone on the network can reach it."""
    from krazy_core.server.launch import _lan_addresses, _network_note
    local = " ".join(_network_note("127.0.0.1", 8765))
    assert "only this computer" in local and "--host 0.0.0.0" in local
    lines = _network_note("0.0.0.0", 9000)
    assert all(":9000/" in ln for ln in lines[:1]) and "http://127." not in " ".join(lines)
    assert all(not a.startswith("127.") for a in _lan_addresses())
    assert _network_note("10.1.2.3", 80) == ["on another device: http://10.1.2.3:80/"]


def test_a_bad_action_or_deep_json_is_told_what_is_wrong_whatever_the_version():
    """A non-int action at an old version was answered "stale" (the client resent it, and was
    told "stale" again); JSON nested 2,000 deep was called "not valid JSON"."""
    with _client() as c:
        r = _create(c, "krazy-kings", ["human", "random"], seed=3, think=0)
        with c.websocket_connect(f"/ws/{r['table']}?token={r['seats'][0]['token']}") as w:
            w.receive_json()
            for bad in ("1", 1.5, None, [1]):
                w.send_json({"type": "action", "action": bad, "version": 10 ** 6})
                err = _until(w, lambda m: m["type"] == "error")
                assert err["code"] == "bad_message" and "action must be an int" in err["reason"], err
            w.send_text("[" * 2000 + "]" * 2000)
            err = _until(w, lambda m: m["type"] == "error")
            assert err["code"] == "bad_json" and "nested too deeply" in err["reason"], err
            w.send_text('{"type": "ping",}')
            err = _until(w, lambda m: m["type"] == "error")
            assert err["code"] == "bad_json" and err["reason"].startswith("not valid JSON (") and "line 1" in err["reason"]
        deep = "[" * 2000 + "]" * 2000
        res = c.post("/api/tables", content=deep, headers={"content-type": "application/json"})
        assert res.status_code == 400 and "nested too deeply" in res.json()["error"]
