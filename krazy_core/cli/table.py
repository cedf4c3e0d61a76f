"""The terminal table's screen: the table, the numbered choices and the prompt, fitted to the
terminal.

At a human's decision the screen is, bottom up: the prompt (one short line), the choices
(numbered, in as many columns as fit; long runs of similar moves folded into one choice
that asks a position next, ``ui.choice_groups``; pages when they still do not fit, ``m``
for more), and the table: the game's full view (``ui.render``) when it leaves a third of
the terminal to the play by play above it, else its few-line view (``ui.compact``), else the
fewest lines (``ui.compact(..., minimal=True)``: the trick or top card and the hand).  The
event log scrolls above.  ``screen_lines`` builds it without printing, so tests check it at
any terminal size.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from rich.console import Console
from rich.markup import escape
from rich.text import Text

# an entry of the choice list: ("move", action, label) or ("group", label, ask, {key: action})
Entry = tuple


def choice_entries(ui, state, legal, labels) -> List[Entry]:
    """The numbered choices: each legal move, except that the moves of a group of
    ``ui.choice_groups`` (more than 3 moves that differ only in a position) are one entry,
    at the place of the group's first move, and a move ``ui.unlisted`` names is left out
    (it is typed by name)."""
    groups = ui.choice_groups(state, legal, labels) if ui.choice_groups else []
    in_group = {}
    for g in groups:
        for a in g[2].values():
            in_group[a] = g
    out: list[tuple] = []
    seen: set[int] = set()
    unlisted = getattr(ui, "unlisted", None)
    for a, lab in zip(legal, labels):
        if unlisted is not None and unlisted(state, a):
            continue                    # typed by name only (Krazy Kings: the last-card trap)
        g = in_group.get(a)
        if g is None:
            out.append(("move", a, lab))
        elif id(g) not in seen:
            seen.add(id(g))
            out.append(("group", g[0], g[1], g[2]))
    return out


def entry_label(e: Entry) -> str:
    return e[2] if e[0] == "move" else e[1]


def _columns(entries, first_number, width) -> Tuple[List[str], int, int]:
    """The cells ``" 1 play 7♥"``, the column width and the number of columns that fit."""
    last = first_number + len(entries) - 1
    digits = len(str(max(1, last)))
    cells = [f"{first_number + i:>{digits}} {entry_label(e)}" for i, e in enumerate(entries)]
    col = (max(len(c) for c in cells) + 3) if cells else 1
    ncols = max(1, min(len(cells), width // col)) if col <= width else 1
    return cells, col, ncols


def _fold(cell: str, width: int, indent: int) -> List[str]:
    """A cell wider than the screen folded at spaces into lines of at most ``width``, the
    lines after the first indented by ``indent`` under the label (never cut: "take reserve 7
    (left) (then choose where)" at 40 columns lost its end)."""
    import textwrap
    lead = len(cell) - len(cell.lstrip())
    lines = textwrap.wrap(cell.lstrip(), width=max(1, width - lead),
                          subsequent_indent=" " * max(0, min(indent - lead, width // 2)))
    return [" " * lead + x for x in lines] if lines else [cell]


def _grid_lines(entries, first_number, width) -> List[Text]:
    """The entries numbered from ``first_number`` in columns, row by row; in one column a
    label wider than the screen folds onto the next lines."""
    cells, col, ncols = _columns(entries, first_number, width)
    lines = []
    for r in range(0, len(cells), ncols):
        row = cells[r:r + ncols]
        if ncols == 1 and len(row[0]) > width:
            c = row[0]
            num = c.lstrip().partition(" ")[0]
            lead = len(c) - len(c.lstrip())
            for k, piece in enumerate(_fold(c, width, lead + len(num) + 1)):
                t = Text()
                if k == 0:
                    t.append(piece[:lead + len(num)], style="bold cyan")
                    t.append(piece[lead + len(num):])
                else:
                    t.append(piece)
                lines.append(t)
            continue
        t = Text()
        for j, c in enumerate(row):
            num, _, rest = c.lstrip().partition(" ")
            t.append(c[:len(c) - len(c.lstrip())] + num, style="bold cyan")
            t.append(" " + rest)
            if j < len(row) - 1:
                t.append(" " * (col - len(c)))
        t.truncate(width, overflow="ellipsis")
        lines.append(t)
    return lines


def _pages(entries, width, rows) -> List[Tuple[int, int]]:
    """``[(first, count)]``: the entries split into pages of at most ``rows`` screen lines
    (a folded label takes several)."""
    per_row = _columns(entries, 1, width)[2]
    if per_row > 1:
        per_page = max(1, rows * per_row)
        return [(f, min(per_page, len(entries) - f)) for f in range(0, len(entries), per_page)]
    out = []
    first = 0
    while first < len(entries):
        count = 0
        used = 0
        while first + count < len(entries):
            h = len(_grid_lines(entries[first + count:first + count + 1], first + count + 1, width))
            if count and used + h > rows:
                break
            used += h
            count += 1
        out.append((first, count))
        first += count
    return out


def _rows_needed(entries, width):
    return len(_grid_lines(entries, 1, width))


def _height(console: Console, renderable, width) -> int:
    return len(console.render_lines(renderable, console.options.update(width=width, height=None), pad=False))


def prompt_text(name: Optional[str], n: int, pages: int, keys: Optional[str] = None) -> str:
    """The short prompt: ``Your move (1-7, or a name; h hint, q quit): ``; ``keys``: the
    game's short answers at this decision (``ui.prompt_keys``), listed after the numbers
    (``Your move (1-2, b buy, p pass, or a name; h hint, q quit): ``)."""
    more = ", m more" if pages > 1 else ""
    who = f"{name}, your move" if name else "Your move"
    span = "1" if n == 1 else f"1-{n}"      # "(1-1, ...)" read as a typo
    extra = f", {keys}" if keys else ""
    return f"{who} ({span}{more}{extra}, or a name; h hint, q quit): "


def fit_table(console: Console, ui, state, viewer, reserve: int, width: int, height: int):
    """``(renderable, lines)``: the fullest view of the table that leaves ``reserve`` lines
    of ``height`` (and, for the full view, a third of the screen for the play by play)."""
    full = ui.render(state, viewer)
    lines = _height(console, full, width)
    if ui.compact is None or lines + reserve <= height * 2 // 3:
        return full, lines
    small = ui.compact(state, viewer)
    lines = _height(console, small, width)
    if lines + reserve <= height:
        return small, lines
    small = ui.compact(state, viewer, minimal=True)
    return small, _height(console, small, width)


def screen_lines(console: Console, ui, state, viewer, entries: List[Entry], page: int = 0,
                 message: Optional[Text] = None, name: Optional[str] = None,
                 width: Optional[int] = None, height: Optional[int] = None):
    """The screen of a decision: ``(renderables, prompt, page, pages, first, count)`` — what
    to print above the prompt, the prompt, the page shown of ``pages`` and the entries on
    it (``entries[first:first + count]``, numbered from ``first + 1``)."""
    width = width or console.size.width
    height = height or console.size.height
    n = len(entries)
    keys = ui.prompt_keys(state) if getattr(ui, "prompt_keys", None) else None
    if message is None and viewer is not None and state.current_player() == viewer:
        message = Text(state.prompt(viewer), style="cyan")     # the engine's prompt (State.prompt)
        more = ui.prompt_hint(state) if getattr(ui, "prompt_hint", None) else None
        message.append(f"  ({more + '; ' if more else ''}r: the rules)", style="dim")
    msg_lines = _height(console, message, width) if message is not None else 0
    prompt_lines = -(-len(prompt_text(name, n, 2, keys)) // width)
    need = _rows_needed(entries, width)
    # the choices get what they need, but at most half the screen (they page beyond that)
    want = min(need, max(2, (height - prompt_lines - msg_lines) // 2))
    table, tlines = fit_table(console, ui, state, viewer, want + prompt_lines + msg_lines, width, height)
    room = max(1, height - tlines - prompt_lines - msg_lines)
    if need <= room:
        first, count, pages, page = 0, n, 1, 0
        grid = _grid_lines(entries, 1, width)
    else:
        rows = max(1, room - 1)                    # one line says there is more
        splits = _pages(entries, width, rows)
        pages = len(splits)
        page %= pages
        first, count = splits[page]
        grid = _grid_lines(entries[first:first + count], first + 1, width)[:rows]
        grid.append(Text(f"   … choices {first + 1}-{first + count} of {n}: m for more", style="dim"))
    parts = [table] + grid
    if message is not None:
        parts.append(message)
    return parts, prompt_text(name, n, pages, keys), page, pages, first, count


def group_prompt(group: Entry) -> str:
    keys = list(group[3])
    span = f"{keys[0]}-{keys[-1]}" if len(keys) > 2 else "/".join(keys)
    return f"{group[2]}? ({span}; Enter to go back, q quit): "
