"""The scripts of a game's screen, as its definition lists them, for the pages that draw one (the live
pages and the replay): ``{% for script in session.game|screen_scripts %}``."""

from django import template

from games.definitions import definition

register = template.Library()


@register.filter
def screen_scripts(game: str) -> tuple[str, ...]:
    """The game's screen scripts under static/, in load order (after js/games/common.js)."""
    return definition(game).screen_scripts
