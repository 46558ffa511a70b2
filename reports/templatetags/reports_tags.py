import datetime as dt
from html import escape

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

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


@register.simple_tag(takes_context=True)
def item_rows(context, rows, review_url):
    """The item analysis's rows, written here: a class can have thousands of questions, and a template
    (or ``format_html``) spends far longer on each row's variables than the page can afford (it must
    answer in under a second). Every value is escaped (``html.escape``, quotes too)."""
    words = {
        key: escape(str(text))
        for key, text in (
            ("too_few", _("too few answers")),
            ("worth_a_look", _("worth a look")),
            ("flag", _("Flag")),
            ("retire", _("Retire")),
            ("put_back", _("Put back")),
            ("confirm", _("Retire this question? Your school’s games will no longer ask it.")),
            ("picked", _("Answers per option:")),
        )
    }
    right = escape(_("(right answer)"))
    words["right_mark"] = f' <span aria-hidden="true">✓</span><span class="visually-hidden">{right}</span>'

    token = escape(str(context.get("csrf_token", "")))
    words["form"] = (
        f'<form method="post" action="{escape(review_url)}" class="row">'
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{token}">'
    )
    shown: dict[str, str] = {}  # each game's and skill's name, escaped once

    def once(text: str) -> str:
        if text not in shown:
            shown[text] = escape(str(text))
        return shown[text]

    return mark_safe(  # every value below is escaped
        "\n".join(
            f'<tr><th scope="row"><bdi>{escape(str(row["label"]))}</bdi>{_options_line(row, words)}</th>'
            f"<td><bdi>{once(row['game_label'])}</bdi></td>"
            f'<td>{once(row["skill_label"])}</td><td class="num">{escape(row["right"])}</td>'
            f'<td class="num">{row["sessions"]:d}</td><td class="num">{row["students"]:d}</td>'
            f'<td class="num">{_index_cell(row, words)}</td>'
            f'<td class="no-print">{_review_cell(row, words, once)}</td></tr>'
            for row in rows
        )
    )


def _options_line(row, words) -> str:
    """A multiple-choice question's answers per option: "river ✓ 5 · lake 2 · sea 0"."""
    if not row.get("options"):
        return ""
    parts = [
        f"<bdi>{escape(option['text'])}</bdi>"
        f"{words['right_mark'] if option['right'] else ''} {option['count']:d}"
        for option in row["options"]
    ]
    return f'<br><span class="muted options">{words["picked"]} {" · ".join(parts)}</span>'


def _index_cell(row, words) -> str:
    if row["index"]:
        badge = f' <span class="badge warn">{words["worth_a_look"]}</span>' if row["weak"] else ""
        # "-0.12" keeps its sign before its digits on a right-to-left page.
        return f'<span dir="ltr">{escape(row["index"])}</span>{badge}'
    return f'<span class="muted">{words["too_few"] if row["too_few"] else "—"}</span>'


def _review_cell(row, words, once) -> str:
    if not row["reviewable"]:
        return '<span class="muted">—</span>'
    review = row["review"]
    label = f'<span class="visually-hidden"> {escape(str(row["label"]))}</span>'
    badge = ""
    if review:
        warn = " warn" if review.status == "retired" else ""
        badge = f'<span class="badge{warn}">{escape(str(review.get_status_display()))}</span>'
    buttons = []
    if not review:
        buttons.append(
            f'<button type="submit" name="action" value="flag" class="secondary small">'
            f"{words['flag']}{label}</button>"
        )
    if not review or review.status != "retired":
        buttons.append(
            f'<button type="submit" name="action" value="retire" class="secondary small" '
            f'data-confirm="{words["confirm"]}">{words["retire"]}{label}</button>'
        )
    if review:
        buttons.append(
            f'<button type="submit" name="action" value="restore" class="secondary small">'
            f"{words['put_back']}{label}</button>"
        )
    return (
        f'{badge}{words["form"]}<input type="hidden" name="game" value="{once(row["game"])}">'
        f'<input type="hidden" name="item_id" value="{escape(row["item_id"])}">{"".join(buttons)}</form>'
    )
