"""The question banks list a shipped Mind the Lines theme or Line Up! subject by the game's own name for it
(in the reader's language), not by its key: the names are the games', the banks' filters ask for them."""

from questions.kinds import kind

from .definitions.lineup.reports import SUBJECT_LABELS
from .definitions.mindlines.pages import theme_name


def subject_name(subject: str) -> str:
    return str(SUBJECT_LABELS.get(subject, subject))


def name_bank_choices() -> None:
    kind("concepts").choice_label = theme_name
    kind("lineup").choice_label = subject_name
