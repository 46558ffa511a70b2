from django import template
from django.utils.html import format_html

from classrooms.once import FIELD, new_token

register = template.Library()


@register.simple_tag
def once_token():
    """A hidden field that makes this form's POST count once (see classrooms.once)."""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_token())
