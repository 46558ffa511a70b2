"""Every kind of question bank in one registry: the bank pages, their URLs, the import and export, the
loader of the shipped banks and the admin ask here about a kind, so none of them names one.

Adding a kind is a module beside these (a :class:`~questions.kinds.base.BankKind`, with its model in
questions/models.py) and one line below; docs/adding-a-game.md walks through it."""

from __future__ import annotations

from typing import Any

from .base import BankKind
from .concepts import CONCEPTS
from .lineup import LINEUP
from .wordup import WORDUP

#: In the order the bank pages list them.
KINDS: dict[str, BankKind] = {kind.name: kind for kind in (LINEUP, WORDUP, CONCEPTS)}


def kind(name: str) -> BankKind:
    try:
        return KINDS[name]
    except KeyError:
        raise KeyError(f"unknown bank kind {name!r}; known: {', '.join(KINDS)}") from None


def names() -> tuple[str, ...]:
    return tuple(KINDS)


def is_kind(name: object) -> bool:
    return isinstance(name, str) and name in KINDS


def kind_of(item: Any) -> BankKind:
    """The kind of a bank item (a row of one of the kinds' models)."""
    for bank in KINDS.values():
        if isinstance(item, bank.model):
            return bank
    raise TypeError(f"not a bank item: {item!r}")


def rotated_kind() -> BankKind:
    """The kind whose questions rotate per class (``QuestionUse``: Line Up! questions)."""
    return next(bank for bank in KINDS.values() if bank.rotated)


def word_list_kind() -> BankKind:
    """The kind whose school's own items go on word lists (Mind the Lines concepts)."""
    return next(bank for bank in KINDS.values() if bank.on_word_lists)
