"""The games' names for the keys other apps' pages show (the question banks' pages): a shipped Mind the
Lines theme or Line Up! subject in the reader's language, the names the game's own pages use; a school's
own theme or subject as its teacher wrote it."""

from django import template

from games.definitions.lineup.reports import SUBJECT_LABELS
from games.definitions.mindlines.pages import theme_name as mindlines_theme_name

register = template.Library()


@register.filter
def theme_name(theme: str) -> str:
    """A Mind the Lines theme ("animals" reads "animales" on a Spanish page)."""
    return mindlines_theme_name(theme or "")


@register.filter
def subject_name(subject: str) -> str:
    """A Line Up! subject ("arts" reads "Arte y música" on a Spanish page)."""
    return str(SUBJECT_LABELS.get(subject, subject or ""))
