from django import template
from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import get_language

from classrooms import languages
from classrooms.languages import catalog_version

register = template.Library()


@register.simple_tag
def javascript_catalog_url() -> str:
    """The JavaScript catalog of the page's language, at its versioned address (config/i18n.py)."""
    return reverse("javascript-catalog-for", args=[get_language()]) + "?v=" + catalog_version()


@register.simple_tag
def language_names() -> list[tuple[str, str]]:
    """The shipped languages, each named in its own language whatever the page's ("English" on a Spanish
    page too: Django's ``get_available_languages`` translates the names into the page's language)."""
    return [(code, name) for code, name in settings.LANGUAGES]


@register.filter
def bdi(value) -> str:
    """``value`` (a name, a game's or session's title, an address) isolated from the text around it, so
    an Arabic page shows "Ava I." and "Line Up!", never ".Ava I" or "!Line Up" (docs/i18n.md)."""
    return format_html("<bdi>{}</bdi>", value)


@register.filter
def isolated(value) -> str:
    """The same where no markup can go (a page's <title>, an attribute): see ``languages.isolated``."""
    return languages.isolated(value)
