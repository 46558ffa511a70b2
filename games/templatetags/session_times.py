"""When a session happened, as a teacher reads it: the time it was played, not the time it was planned."""

from django import template
from django.utils.html import format_html

from games.models import GameSession
from games.selectors import session_when as when

register = template.Library()


@register.simple_tag
def session_when(session: GameSession):
    """``Finished 14:05`` today, ``Finished Tue 1 Dec, 14:05`` on another day, in a <time> element."""
    moment = when(session)
    return format_html('<time datetime="{}">{}</time>', moment["at"], moment["text"])
