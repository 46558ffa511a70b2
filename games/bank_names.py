"""The question banks list a shipped value of a kind's own choice (a Mind the Lines theme, a Line Up!
subject) by the game's own name for it in the reader's language, not by its key: the names are the
games' (their ``BankUse.filter_label``), the banks' filters ask for them."""

from questions.kinds import kind

from .definitions import DEFINITIONS


def name_bank_choices() -> None:
    for definition in DEFINITIONS.values():
        if definition.bank is not None and definition.bank.filter_label is not None:
            kind(definition.bank.kind).choice_label = definition.bank.filter_label
