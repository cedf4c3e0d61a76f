from typing import Dict, Iterable, List, Union

Card = int
SUIT_SPADES: int
SUIT_HEARTS: int
SUIT_DIAMONDS: int
SUIT_CLUBS: int
SUIT_STARS: int
SUIT_JOKER: int
SUIT_NUMBER: int
SUIT_SPECIAL: int
RANK_ACE: int
RANK_JACK: int
RANK_QUEEN: int
RANK_KING: int
JOKER: int
X_CARD: int
DRAW_CARD: int
STOP_CARD: int
NO_CARD: int
SUIT_LETTERS: str
SUIT_SYMBOLS: str
RANK_TEXT: Dict[int, str]

def make_card(suit: int, rank: int) -> int: ...
def rank_of(card: int) -> int: ...
def suit_of(card: int) -> int: ...
def is_valid_card(card: object) -> bool: ...
def format_card(card: int, ascii: bool = ...) -> str: ...
def parse_card(text: Union[str, int]) -> int: ...
def parse_cards(text: Union[str, Iterable[Union[str, int]]]) -> List[int]: ...
def format_cards(cards: Iterable[int], ascii: bool = ...) -> str: ...
def all_codes() -> List[int]: ...
