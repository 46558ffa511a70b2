from django import template
from django.urls import reverse
from django.utils.translation import get_language

from classrooms.languages import catalog_version

register = template.Library()


@register.simple_tag
def javascript_catalog_url() -> str:
    """The JavaScript catalog of the page's language, at its versioned address (config/i18n.py)."""
    return reverse("javascript-catalog-for", args=[get_language()]) + "?v=" + catalog_version()
