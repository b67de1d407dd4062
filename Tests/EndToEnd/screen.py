"""Reading a captured picker screen: tiles, captions, focus, counts, tray.

Kept apart from the tmux harness in conftest.py: this part only parses text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass


def cells(line: str) -> list[str]:
    """A captured line as terminal cells: a wide character takes two."""
    out: list[str] = []
    for ch in line:
        if unicodedata.combining(ch) and out:
            out[-1] += ch
            continue
        out.append(ch)
        if unicodedata.east_asian_width(ch) in ("W", "F"):
            out.append("")
    return out


@dataclass
class Tile:
    top: int
    left: int
    width: int  # including borders
    height: int  # including borders
    focused: bool
    top_border: str  # between the corners
    body: list[str]  # rows between the top and bottom borders
    caption: str  # the last body row, stripped

    @property
    def selected(self) -> bool:
        return self.caption.startswith("✓ ") and "✓" in self.top_border

    @property
    def name(self) -> str:
        return self.caption[2:] if self.caption.startswith("✓ ") else self.caption

    @property
    def text(self) -> str:
        return "\n".join(self.body)


class Screen:
    def __init__(self, text: str, height: int):
        lines = text.split("\n")
        if lines and lines[-1] == "" and len(lines) > height:
            lines.pop()
        lines += [""] * (height - len(lines))
        self.lines = lines
        self.text = "\n".join(lines)

    def __contains__(self, needle: str) -> bool:
        return needle in self.text

    def __str__(self) -> str:
        width = max(len(line) for line in self.lines) if self.lines else 0
        rule = "-" * max(width, 20)
        numbered = "\n".join(f"{i:2d}|{line}" for i, line in enumerate(self.lines))
        return f"\n{rule}\n{numbered}\n{rule}"

    @property
    def source_bar(self) -> str:
        return self.lines[0]

    @property
    def breadcrumb(self) -> str:
        return self.lines[1]

    @property
    def tray(self) -> str:
        return self.lines[-2]

    @property
    def status(self) -> str:
        """The bottom line: hints, or a message."""
        return self.lines[-1]

    @property
    def counts(self) -> tuple[int, int] | None:
        """(loaded, total) from the breadcrumb's "L of T"."""
        match = re.search(r"(\d+) of (\d+)", self.breadcrumb)
        return (int(match.group(1)), int(match.group(2))) if match else None

    @property
    def crumb_path(self) -> str:
        """The breadcrumb's left part (the root and " / Album" parts)."""
        return re.split(r"\s{2,}", self.breadcrumb.strip())[0] if self.breadcrumb.strip() else ""

    def tray_names(self) -> list[str]:
        match = re.match(r"\s*Picked \d+(?:/\d+)?:\s*(.*)$", self.tray)
        if not match:
            return []
        return [name for name in re.split(r"\s{2,}", match.group(1).strip()) if name]

    def tray_header(self) -> str:
        match = re.match(r"\s*(Picked \d+(?:/\d+)?)", self.tray)
        return match.group(1) if match else ""

    def tiles(self) -> list[Tile]:
        grid = [cells(line) for line in self.lines]
        found: list[Tile] = []
        for y, row in enumerate(grid):
            for x, ch in enumerate(row):
                if ch not in ("┌", "┏"):
                    continue
                heavy = ch == "┏"
                right = next((i for i in range(x + 1, len(row)) if row[i] in ("┐", "┓")), None)
                if right is None:
                    continue
                bottom_chars = ("┗",) if heavy else ("└",)
                bottom = next(
                    (j for j in range(y + 1, len(grid)) if x < len(grid[j]) and grid[j][x] in bottom_chars),
                    None,
                )
                if bottom is None or bottom - y < 2:
                    continue
                body = ["".join(grid[j][x + 1 : right]) for j in range(y + 1, bottom)]
                found.append(
                    Tile(
                        top=y,
                        left=x,
                        width=right - x + 1,
                        height=bottom - y + 1,
                        focused=heavy,
                        top_border="".join(row[x + 1 : right]),
                        body=body,
                        caption=body[-1].strip(),
                    )
                )
        return found

    def captions(self) -> list[str]:
        return [tile.caption for tile in self.tiles()]

    def names(self) -> list[str]:
        return [tile.name for tile in self.tiles()]

    def focused(self) -> Tile | None:
        focused = [tile for tile in self.tiles() if tile.focused]
        return focused[0] if len(focused) == 1 else None

    def focused_caption(self) -> str | None:
        tile = self.focused()
        return tile.caption if tile else None

    def tile(self, name: str) -> Tile | None:
        return next((tile for tile in self.tiles() if tile.name == name), None)

    def columns(self) -> int:
        """Tiles in the first grid row."""
        tiles = self.tiles()
        if not tiles:
            return 0
        first = min(tile.top for tile in tiles)
        return sum(1 for tile in tiles if tile.top == first)


# --------------------------------------------------------------------------
# One running picker in one tmux session.
