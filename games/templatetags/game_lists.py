"""The games list other apps' pages show (a class's page lists its games) without their views importing
the games app: the page loads this tag library and the list is read here."""

from django import template

from games.homework_selectors import assignments_for_staff
from games.selectors import sessions_for_staff

register = template.Library()


@register.inclusion_tag("games/_session_list.html", takes_context=True)
def class_sessions(context, classroom):
    """The class's upcoming and past games, as the signed-in staff member may see them."""
    sessions = sessions_for_staff(context["request"].user, classroom=classroom)
    return {"sessions": sessions, "classroom": classroom}


@register.inclusion_tag("games/_homework_list.html", takes_context=True)
def class_homework(context, classroom):
    """The class's current and past homework."""
    homework = assignments_for_staff(context["request"].user, classroom=classroom)
    return {"homework": homework, "classroom": classroom}
