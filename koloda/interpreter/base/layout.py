"""The table's geometry for one number of players, worked out before anything is compiled.

Zones and variables are flat lists in the state; whatever each player (or
each side) owns sits at base + owner. A grid is a block of cell zones; a meld
area is a pool of slots, each a zone holding one meld. The generator, the
state and the view all read positions from here.
"""
from __future__ import annotations

from dataclasses import dataclass

from koloda.dsl.errors import RuleError, RuleErrors
from koloda.dsl.model import Spec, VarSpec, ZoneSpec
from koloda.dsl.types import CARD
from koloda.interpreter.base.cards import rank_name


@dataclass(frozen=True)
class Grid:
    """A player's or side's square of cells; each cell is a zone holding a stack."""
    name: str
    owner: int | None
    by_side: bool
    rows: list[list[int]]
    line_kinds: tuple[str, ...]

    @property
    def cells(self) -> list[int]:
        return [z for row in self.rows for z in row]

    @property
    def columns(self) -> list[list[int]]:
        return [list(col) for col in zip(*self.rows)]

    @property
    def diagonals(self) -> list[list[int]]:
        size = len(self.rows)
        if any(len(row) != size for row in self.rows):
            return []
        return [[self.rows[i][i] for i in range(size)], [self.rows[i][size - 1 - i] for i in range(size)]]

    @property
    def lines(self) -> list[list[int]]:
        found = {"rows": self.rows, "columns": self.columns, "diagonals": self.diagonals}
        return [line for kind in self.line_kinds for line in found[kind]]


@dataclass(frozen=True)
class Cell:
    """Where a grid's cell sits, and the rank it belongs to (None: any)."""
    grid: int
    row: int
    column: int
    rank: int | None


@dataclass(frozen=True)
class Zone:
    name: str
    owner: int | None          # a player, a side (by_side), or None for a shared zone or a meld slot
    by_side: bool
    visible: str
    cell: Cell | None = None
    slot: int | None = None    # the meld slot this zone is


class Layout:
    def __init__(self, spec: Spec, var_types: dict[str, str], players: int, deck_size: int):
        self.num_players = n = players
        sides = spec.sides
        if isinstance(sides, dict):       # sides by player count; other counts play each for themselves
            sides = {int(k): int(v) for k, v in sides.items()}.get(n, n)
        self.num_sides: int = sides or n
        if n % self.num_sides:
            raise RuleErrors([RuleError(f"{n} players cannot sit in {self.num_sides} equal sides", spec.span)])
        self.zones: list[Zone] = []
        self.zone_base: dict[str, int] = {}
        self.grid_base: dict[str, int] = {}
        self.grids: list[Grid] = []
        self.slot_zone: list[int] = []          # meld slot -> its zone
        self.zone_slot: dict[int, int] = {}     # zone -> meld slot
        self.meld_area: str | None = None
        self.meld_by_side = False
        for name, z in spec.zones.items():
            if z.grid is not None:
                self.grid_base[name] = len(self.grids)
                for owner in self.owners(z):
                    self._add_grid(name, owner, z)
                continue
            self.zone_base[name] = len(self.zones)
            if z.melds:
                # a pool of slots, each a zone holding one meld; who owns a meld is part of the state
                self.meld_area, self.meld_by_side = name, z.per_side
                smallest = min((k.min for k in spec.meld_kinds), default=3)
                for slot in range(max(1, deck_size // max(smallest, 1))):
                    self.zone_slot[len(self.zones)] = slot
                    self.slot_zone.append(len(self.zones))
                    self.zones.append(Zone(name, None, z.per_side, z.visible, slot=slot))
            else:
                for owner in self.owners(z):
                    self.zones.append(Zone(name, owner, z.per_side, z.visible))
        self.zone_names = [z.name for z in self.zones]
        self.zone_owner = [z.owner for z in self.zones]
        self.zone_cell = [z.cell for z in self.zones]
        self.watchers = self._watchers()
        # zones the whole table shares and sees (a trick, an open row): who put each card there and
        # where their cards go are public, and the table shows them
        self.public = [z.owner is None and z.slot is None and z.visible == "all" for z in self.zones]
        # a player's own zone (a hand, not a side's pile nor a meld slot): a card an action moves out of
        # it is credited to that player, whoever's action it is (the dummy's hand laid down, played)
        self.holder = [z.owner if z.owner is not None and not z.by_side and z.slot is None else -1
                       for z in self.zones]
        self.var_base: dict[str, int] = {}
        self.var_names: list[str] = []
        self.var_owner: list[int | None] = []
        self.card_vars: list[int] = []       # variables that hold a card (renamed when bots sample)
        for name, v in spec.vars.items():
            self.var_base[name] = len(self.var_names)
            for owner in self.owners(v):
                if var_types.get(name) == CARD:
                    self.card_vars.append(len(self.var_names))
                self.var_names.append(name)
                self.var_owner.append(owner)

    def _add_grid(self, name: str, owner: int | None, z: ZoneSpec) -> None:
        gid = len(self.grids)
        rows = []
        for r, row in enumerate(z.grid or []):
            rows.append(list(range(len(self.zones), len(self.zones) + len(row))))
            for c, rank in enumerate(row):
                self.zones.append(Zone(name, owner, z.per_side, z.visible, Cell(gid, r, c, rank)))
        self.grids.append(Grid(name, owner, z.per_side, rows, z.lines))

    def owners(self, item: ZoneSpec | VarSpec) -> list[int | None]:
        """Who has one of these: nobody in particular, each player, or each side."""
        if not item.each_player:
            return [None]
        return list(range(self.num_sides if item.per_side else self.num_players))

    def _watchers(self) -> list[int]:
        """For each zone, the players (as bits) who see a face-up card in it."""
        n = self.num_players
        everyone = (1 << n) - 1
        masks = []
        for z in self.zones:
            if z.visible in ("all", "top"):
                masks.append(everyone)
            elif z.visible == "owner" and z.owner is not None:
                masks.append(sum(1 << p for p in range(n) if self.sees(p, z.owner, z.by_side)))
            else:
                masks.append(0)
        return masks

    # ------------------------------------------------------------ players and sides
    def side_of(self, player: int) -> int:
        return player % self.num_sides

    def sees(self, player: int, owner: int | None, by_side: bool) -> bool:
        """Does `player` own this (alone or with their side)?"""
        if owner is None:
            return False
        return (player % self.num_sides == owner) if by_side else player == owner

    def meld_owner_of(self, player: int) -> int:
        """The owner index of `player`'s melds: the player, or their side."""
        return player % self.num_sides if self.meld_by_side else player

    def owner_label(self, owner: int, by_side: bool) -> str:
        if not by_side or self.num_sides == self.num_players:
            return f"P{owner + 1}"
        return "+".join(f"P{p + 1}" for p in range(self.num_players) if p % self.num_sides == owner)

    def zone_label(self, zone: int) -> str:
        """`P2 square 7`, `stock`: a zone as players name it."""
        z = self.zones[zone]
        text = z.name if z.owner is None else f"{self.owner_label(z.owner, z.by_side)} {z.name}"
        cell = z.cell
        if cell is not None:
            alike = [c for c in self.grids[cell.grid].cells if (other := self.zones[c].cell) and other.rank == cell.rank]
            if cell.rank is not None and len(alike) == 1:     # the only cell of its rank is named by the rank
                text += f" {rank_name(cell.rank)}"
            else:
                text += f" {cell.row + 1},{cell.column + 1}"
        return text
