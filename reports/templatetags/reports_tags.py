import datetime as dt

from django import template

from reports import charts, present

register = template.Library()


@register.filter
def pct(value):
    return present.pct(value)


@register.filter
def secs(value):
    return present.seconds(value)


@register.filter
def get(mapping, key):
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def isodate(value):
    return dt.date.fromisoformat(value) if value else None


@register.simple_tag
def svg(chart, dom_id=""):
    """An accessible inline SVG chart (title and description for screen readers)."""
    return charts.to_svg(chart, dom_id=dom_id)
