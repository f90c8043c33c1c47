"""What a game is to the rest of baccara: one :class:`GameSpec` per game id.

A spec holds the game's rules class, its bets and the call of a round, the facts of
its table (seats, dealers, the peek or the choice, the hands it deals), the rule
variants a designer tries first, and *where* its exact analyzer, effect of removal,
simulation kernel and table procedure live. Those are named by import path and
loaded on first use: the registry stays free of numpy and numba, so
``baccara games`` starts at once, and ``games/`` never imports a layer above it.

>>> from baccara.games import game
>>> spec = game("redgreen-mini")
>>> spec.name, spec.table.seats, spec.table.highest_bettor_chooses_first_hand
('Mini RedGreen', 7, True)
"""

from __future__ import annotations

import enum
import importlib
import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, TypeVar

from baccara.errors import BaccaraError, InvalidBet, shown
from baccara.games.variant import Variant
from baccara.options import Parser, field_of

_IMPORT_PATH = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")
"""A role's path: a module's dotted name, a colon, and a name in the module."""


class Rules(Protocol):
    """A game's rules: a frozen dataclass built from user options by ``from_options``."""

    OPTIONS: ClassVar[Mapping[str, Parser]]
    """Each option's parser, by field name: what the game takes, and how it is read."""

    @classmethod
    def from_options(cls, **options: Any) -> Self:
        """Parse and check each option (text, numbers) and build the rules."""
        ...


class Equipment(enum.Enum):
    """What a game is dealt with."""

    CARDS = "cards"
    """Standard 52-card decks in a shoe."""
    TILES_AND_DICE = "tiles and dice"
    """Lo-Ball's 28 tiles, 1-1 to 7-7, and three dice."""

    @property
    def piece(self) -> str:
        """What one dealt position holds, in a player's word: ``"card"`` or ``"tile"``."""
        return "card" if self is Equipment.CARDS else "tile"


class Felt(enum.Enum):
    """How the hands lie on the felt: what a player's screen draws, whatever the game."""

    SCORED_HANDS = "scored-hands"
    """Two or more card hands, each showing its baccarat score (Player and Banker)."""
    SET_HANDS = "set-hands"
    """Community hands the dealer sets into a front and a back by the house way (Red, Green)."""
    SEATS_AGAINST_DEALER = "seats-against-dealer"
    """The dealer's hand and each seat's, exposed pieces and dice (Lo-Ball)."""


@dataclass(frozen=True)
class Spot:
    """One bet spot on the layout: the bet, the name printed on it, and its row (1 at the top).

    Spots of a row are laid left to right in the order the game lists them."""

    bet: str
    name: str
    row: int


@dataclass(frozen=True)
class Floor:
    """How a table of the game runs on a casino floor, as the PAR sheet assumes it.

    None of it is in the rule documents: the sheet marks each figure as an assumption,
    names ``source``, and takes the operator's own with an option. ``hands_per_hour`` is
    the pace of a full table; ``mix`` is the bets its seats spread their average bet
    over, seat by seat in turn (Banker, Player, Banker…), for the table's week.
    """

    hands_per_hour: int
    source: str
    mix: tuple[str, ...]


@dataclass(frozen=True)
class TableFacts:
    """How the game is dealt at a real table: what the live procedure and the server read.

    ``seats_per_side`` is set for a table worked by two protecting dealers, each paying
    and collecting one side (RedGreen's first version: six a side). ``seat_required``
    is False where players may also bet without a seat ("bet behind"), as online
    Punto Banco tables allow. ``hands`` names the hands a card game deals to the layout,
    in the order they are shown (Player then Banker; Red then Green): the names the
    procedure deals to and the API groups a round's cards by. A tile game names none:
    Lo-Ball deals to the dealer and to each seat, and exposes tiles and rolls dice.
    ``default_live_table`` asks a new casino for a live table of the game, dealt by a
    dealer, besides the electronic table it opens for every game.
    """

    seats: int
    dealers: int
    equipment: Equipment
    seat_required: bool
    seats_per_side: int | None = None
    highest_bettor_may_peek: bool = False
    highest_bettor_chooses_first_hand: bool = False
    second_hand_exposed_card_by_card: bool = False
    players_touch_cards: bool = False
    hands: tuple[str, ...] = ()
    default_live_table: bool = False

    def __post_init__(self) -> None:
        if self.seats < 1 or self.dealers < 1:
            raise BaccaraError("a table has at least one seat and one dealer")
        if (self.equipment is Equipment.CARDS) != bool(self.hands):
            raise BaccaraError("a card game names the hands it deals; a tile game deals to seats")
        if self.highest_bettor_may_peek and not self.players_touch_cards:
            raise BaccaraError("a player who peeks touches the cards")
        if self.seats_per_side is not None and 2 * self.seats_per_side != self.seats:
            raise BaccaraError(f"two sides of {self.seats_per_side} seats make {self.seats}")

    def verify_seat(self, seat: object) -> int:
        """Seats are numbered 1 to ``seats``; refuse any other."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= self.seats:
            raise BaccaraError(f"seats run 1 to {self.seats}, not {shown(seat)}")
        return seat

    def side_of(self, seat: int) -> str | None:
        """``"left"`` or ``"right"`` for a two-sided table (seats 1–6 left), else ``None``."""
        if self.seats_per_side is None:
            return None
        return "left" if self.verify_seat(seat) <= self.seats_per_side else "right"


class Role(enum.Enum):
    """A part of a game that lives above ``games/``, named in the registry by import path.

    A closed set, so a misspelt role is a type error rather than a failed lookup at a
    table. Each value is the name of the :class:`GameSpec` field that holds the path.
    What each role's object must be is known only to the layer that defines its type;
    there, an accessor loads it and checks it (``exact/roles.py``, ``exact/removal.py``,
    ``sim/roles.py``, ``table/roles.py``).
    """

    ANALYZER = "analyzer"
    REMOVAL = "removal"
    KERNEL = "kernel"
    PLAIN_KERNEL = "plain_kernel"
    PROCEDURE = "procedure"
    DEPLETED = "depleted"
    JOINT = "joint"


class MisregisteredRole(BaccaraError):
    """A registry entry does not serve its role: its path does not import, or names
    something of the wrong kind, shape or result. The message names the game, the role
    and the path, so the entry to mend is plain."""

    def __init__(self, game_id: str, role: Role, path: str, problem: str) -> None:
        self.game_id = game_id
        self.role = role
        super().__init__(f"{game_id}'s {role.value}, {path}, {problem}")


_T = TypeVar("_T")

_MISSING = object()
_LOADED: dict[str, object] = {}
"""Each role's object by its path, once imported: a stored round read, a page of history,
a report's rounds each take their game's procedure or model, and importing it afresh
each time cost more than the rest of the work."""
_CHECKED: dict[tuple[str, int], Callable[..., object]] = {}
"""Each role's function by its path and the number of arguments it was checked to take:
its signature is read once, not on every call."""


@dataclass(frozen=True)
class GameSpec:
    """One game: its rules, bets and table, and where its mathematics and procedure live.

    The paths (one per :class:`Role`) name objects of one shape per role; the
    functions take built rules, and most the game id too (two games may share code,
    as RedGreen and Mini RedGreen do). Each role is loaded and checked through its
    accessor, in the layer that defines its type:

    * ``analyzer(game_id, rules) -> Analysis`` — the exact analysis
      (``exact.roles.analysis_of``);
    * ``removal(game_id, rules) -> EffectOfRemoval`` — effect of removal
      (``exact.removal.removal_of``);
    * ``kernel(game_id, rules, shoe, penetration) -> Dealer`` — compiled kernel
      (``sim.roles.kernel_of``);
    * ``plain_kernel(rng, rounds, continuous, penetration, rules)`` — the same rounds
      through the plain rules code, which the kernel is proven equal to, each round
      every bet's outcome name (``sim.roles.plain_rounds_of``);
    * ``procedure`` — the table procedure: dealing order, reveal, settlement
      (``table.roles.procedure_of``);
    * ``depleted(rules, shoe) -> tuple[BetAnalysis, ...]`` — every bet's exact analysis
      dealt from a given shoe composition, for a live continuous shoe (``None``: the
      game has no shoe; ``exact.roles.bets_dealt_from``);
    * ``joint(rules) -> RoundModel`` — the house's win on one round, its exact mean and
      variance from the joint distribution of every wager on it
      (``exact.roles.round_model_of``).
    """

    id: str
    name: str
    seed: str
    """The rule document this game implements (``seeds/`` in the project's sources)."""
    doc: str
    """The project's page on the game's rules and mathematics."""
    rules: type[Rules]
    bets: type[enum.Enum]
    outcome: type[enum.Enum]
    """The call of a round: Player/Banker/Tie, Red/Green/push, or a Lo-Ball seat's main outcome."""
    table: TableFacts
    analyzer: str
    removal: str
    kernel: str
    plain_kernel: str
    procedure: str
    depleted: str | None
    joint: str
    brief: str = ""
    """The rules in a paragraph, as the seed deals them by default (the report opens with it)."""
    published: str = ""
    """What the seed publishes of the game's mathematics, and for which rules; empty when
    it publishes nothing (the report says so rather than leave a column out)."""
    variants: tuple[Variant, ...] = ()
    """The rule variants a designer looks at first: what ``baccara compare GAME`` and
    the report compare when no variant is named."""
    assumed: tuple[tuple[str, str], ...] = ()
    """The rule options whose default the seed does not give, each with where the value
    comes from: the report marks them as assumptions, not as the seed's."""
    spots: tuple[Spot, ...] = ()
    """The layout's bet spots, every bet once, in the order they are laid out."""
    felt: Felt = Felt.SCORED_HANDS
    tagline: str = ""
    """The game in a line, as the lobby lists it."""
    commission_on: tuple[str, ...] = ()
    """The bets whose win is charged the ``commission`` option (Banker; Red and Green)."""
    roads: bool = False
    """Whether the table keeps roads: the scoreboard of its past results (bead plate, big
    road… as players of each game expect them) on the table page, and its last results
    in miniature in the lobby."""
    floor: Floor | None = None
    """The pace of a table and the bets its seats favour, for the PAR sheet's operations
    figures (assumptions, with their source); ``None``: the sheet asks for them."""
    option_labels: tuple[tuple[str, str], ...] = ()
    """How the rules page names each rule option (``("tie_pays", "Tie pays")``); an
    option not named here is named from its own name, and ``commission`` from the bets
    it is charged on."""

    def __post_init__(self) -> None:
        laid = tuple(spot.bet for spot in self.spots)
        if sorted(laid) != sorted(self.bet_ids):
            raise BaccaraError(f"{self.id}'s layout lays {laid}, not its bets {self.bet_ids}")
        unknown = set(self.commission_on) - set(self.bet_ids)
        if unknown:
            raise BaccaraError(
                f"{self.id} charges commission on bets it has not: {sorted(unknown)}"
            )
        if self.floor is not None and not set(self.floor.mix) <= set(self.bet_ids):
            raise BaccaraError(f"{self.id}'s floor mixes bets it has not: {self.floor.mix}")
        named = {option for option, _ in self.option_labels} - set(self.rules.OPTIONS)
        if named:
            raise BaccaraError(f"{self.id} names options it does not take: {sorted(named)}")
        for role in Role:
            path = self.path(role)
            if path is not None and not _IMPORT_PATH.fullmatch(path):
                raise BaccaraError(
                    f"{self.id}'s {role.value} is named {shown(path)}, "
                    "not by a path like 'package.module:name'"
                )

    def assumption(self, option: str) -> str | None:
        """Where an option's default comes from when the seed does not give it, else ``None``."""
        return dict(self.assumed).get(option)

    @property
    def seed_number(self) -> str:
        """``"000"`` for ``000_864575d53969f986.txt``: how the docs and the report cite a seed."""
        return self.seed.partition("_")[0]

    def rules_from_options(self, **options: Any) -> Any:
        """The rules under ``options`` (``decks=6``, ``"tie-pays": "9"``…), checked.

        An option the game does not take is refused in this game's name: Mini
        RedGreen shares RedGreen's rules, and ``peek`` is not an option of either.
        """
        for key in options:
            field_of(self.id, key, self.rules.OPTIONS)
        return self.rules.from_options(**options)

    def parse_bet(self, text: str) -> enum.Enum:
        """The bet whose id is ``text``; refuse anything else, listing the bets."""
        from baccara.games.bets import parse_bet

        return parse_bet(self.bets, text, self.id)

    @property
    def bet_ids(self) -> tuple[str, ...]:
        return tuple(str(bet.value) for bet in self.bets)

    def bets_at(self, rules: object) -> tuple[str, ...]:
        """The bets a table with ``rules`` takes: the game's, then any side bets its rules
        add (Punto Banco's Dragon 7 and the rest, read from files)."""
        found = getattr(rules, "bet_ids", None)
        return tuple(found) if isinstance(found, tuple) else self.bet_ids

    def check_bet(self, text: str, rules: object) -> str:
        """The id of a bet a table with ``rules`` takes; refuse anything else, listing them."""
        bets = self.bets_at(rules)
        if isinstance(text, str) and text in bets:
            return text
        raise InvalidBet(f"unknown bet {shown(text)} for {self.id}; bets are: {', '.join(bets)}")

    def spots_at(self, rules: object) -> tuple[Spot, ...]:
        """The layout of a table with ``rules``: the game's spots, and a row of its side
        bets above them (each named as its file names it)."""
        extra = getattr(rules, "sidebets", ())
        if not extra:
            return self.spots
        shifted = tuple(Spot(s.bet, s.name, s.row + 1) for s in self.spots)
        return (*(Spot(side.id, side.name, 1) for side in extra), *shifted)

    def public_facts(self) -> dict[str, Any]:
        """What a player's screen needs to draw the game, as plain JSON-able data: the
        bet spots with their names and rows, the hands it deals in the order shown, the
        seats a side (``None`` for one side), the dealers, what is dealt and how the felt
        lies, the bets charged commission, and whether the table keeps roads. The web
        front end reads these from ``/api/games`` and knows no game by name.

        >>> from baccara.games import game
        >>> facts = game("redgreen").public_facts()
        >>> facts["seats_per_side"], [s["name"] for s in facts["spots"]]
        (6, ['Red', 'Bonus', 'Green'])
        """
        table = self.table
        return {
            "tagline": self.tagline,
            "dealers": table.dealers,
            "equipment": table.equipment.value,
            "piece": table.equipment.piece,
            "dice": table.equipment is Equipment.TILES_AND_DICE,
            "felt": self.felt.value,
            "hands": [{"hand": hand, "name": hand.capitalize()} for hand in table.hands],
            "seats_per_side": table.seats_per_side,
            "spots": [{"bet": s.bet, "name": s.name, "row": s.row} for s in self.spots],
            "commission_on": list(self.commission_on),
            "roads": self.roads,
            "option_labels": dict(self.option_labels),
        }

    def path(self, role: Role) -> str | None:
        """Where the object serving ``role`` lives (``"package.module:name"``); ``None``
        for a role the game does without (Lo-Ball deals no shoe to deplete)."""
        path: str | None = getattr(self, role.value)  # each role's value names its field
        return path

    @property
    def roles(self) -> tuple[Role, ...]:
        """The roles this game declares a path for, in :class:`Role`'s order."""
        return tuple(role for role in Role if self.path(role) is not None)

    def load(self, role: Role) -> object:
        """The object serving ``role``, imported on first use and remembered by its path.

        Typed ``object`` because ``games/`` cannot know it: the types live in the layers
        above, which check what they load through their accessors. A path that does not
        import raises :class:`MisregisteredRole`; a role the game does without, a
        :class:`~baccara.errors.BaccaraError`.
        """
        path = self.path(role)
        if path is None:
            raise BaccaraError(f"{self.name} has no {role.value}")
        found = _LOADED.get(path, _MISSING)
        if found is _MISSING:
            found = _LOADED[path] = self._import(role, path)
        return found

    def _import(self, role: Role, path: str) -> object:
        module, _, name = path.partition(":")
        try:
            imported = importlib.import_module(module)
        except ModuleNotFoundError as error:
            missing = error.name or ""
            if module != missing and not module.startswith(f"{missing}."):
                raise  # the module exists and lacks a dependency: not the entry's fault
            raise self.misregistered(role, f"does not import: {error}") from error
        try:
            return getattr(imported, name)
        except AttributeError:
            raise self.misregistered(role, f"does not import: {module} has no {name}") from None

    def call(self, role: Role, returning: type[_T], *args: object) -> _T:
        """Call the function serving ``role`` with ``args``, and check it returns a
        ``returning``: an entry that is not a function, does not take these arguments
        or returns something else raises :class:`MisregisteredRole` instead of failing
        later, wherever its result is used. An accessor whose result is a Protocol
        passes ``object`` and checks the result itself."""
        path = self.path(role)
        function = _CHECKED.get((path, len(args))) if path is not None else None
        if function is None:
            function = self._checked_function(role, args)
            _CHECKED[path or "", len(args)] = function
        result = function(*args)
        if not isinstance(result, returning):
            raise self.misregistered(
                role, f"returned a value of type {type(result).__name__}, not {returning.__name__}"
            )
        return result

    def _checked_function(self, role: Role, args: tuple[object, ...]) -> Callable[..., object]:
        """The function serving ``role``, checked to take ``args``: one whose signature
        cannot be read (a function written in C, say) cannot be checked, and is refused."""
        function = self.load(role)
        if not callable(function):
            raise self.misregistered(role, f"is not a function but {shown(function)}")
        try:
            signature = inspect.signature(function)
        except (TypeError, ValueError) as error:
            raise self.misregistered(
                role, f"has no signature to check the role's {len(args)} arguments against: {error}"
            ) from None
        try:
            signature.bind(*args)
        except TypeError as error:
            raise self.misregistered(
                role, f"does not take the role's {len(args)} arguments: {error}"
            ) from None
        return function

    def misregistered(self, role: Role, problem: str) -> MisregisteredRole:
        """The error for this game's entry for ``role``: what an accessor raises when the
        object it loaded is not what the role promises."""
        return MisregisteredRole(self.id, role, self.path(role) or "no path", problem)
