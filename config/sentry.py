"""Error reports to Sentry, only where ``SENTRY_DSN`` is set, and never a student's data.

Sentry's own guard (``send_default_pii=False``: no user, cookies or client address) is not enough for a
school: an error's message, a log line or a local variable can hold a name, an email or an answer. So no
local variable and no request body is sent, and :func:`scrub_event` keeps of each event only what
describes the code (exception types, stack frames, the view) and masks in the texts it keeps what looks
like data: quoted values, email addresses, a database error's ``Key (...)=(...)`` and ``Failing row
contains (...)`` details. A name written unquoted into an error's text would still pass: no error text
or log line of the project's own names a student (a log line's values are its arguments, dropped here).
"""

from __future__ import annotations

import re
from typing import Any

FILTERED = "[Filtered]"
_EMAIL = re.compile(r"[^\s@'\"<>()]+@[^\s@'\"<>()]+")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|“[^”]*”|«[^»]*»")
_DATABASE_DETAIL = re.compile(r"=\([^)]*\)")
_DATABASE_ROW = re.compile(r"(row contains )\(.*\)", re.DOTALL)
#: Of a request, only what says which page it was (the path without its query).
_REQUEST_KEPT = ("method", "url")


def scrub_text(text: str) -> str:
    text = _EMAIL.sub(FILTERED, text)
    text = _DATABASE_DETAIL.sub("=(" + FILTERED + ")", text)
    text = _DATABASE_ROW.sub(r"\1(" + FILTERED + ")", text)
    return _QUOTED.sub(FILTERED, text)


def scrub_event(event: dict[str, Any], hint: Any = None) -> dict[str, Any]:
    event.pop("user", None)
    event.pop("extra", None)
    event.pop("server_name", None)
    request = event.get("request")
    if isinstance(request, dict):
        kept = {key: request[key] for key in _REQUEST_KEPT if key in request}
        if "url" in kept:
            kept["url"] = str(kept["url"]).split("?", 1)[0]
        event["request"] = kept
    for exception in (event.get("exception") or {}).get("values") or []:
        if isinstance(exception.get("value"), str):
            exception["value"] = scrub_text(exception["value"])
        for frame in (exception.get("stacktrace") or {}).get("frames") or []:
            frame.pop("vars", None)
    entry = event.get("logentry")
    if isinstance(entry, dict):
        event["logentry"] = {"message": scrub_text(str(entry.get("message", "")))}  # not its values
    if isinstance(event.get("message"), str):
        event["message"] = scrub_text(event["message"])
    breadcrumbs = event.get("breadcrumbs")
    if isinstance(breadcrumbs, dict):
        breadcrumbs["values"] = [scrub_breadcrumb(crumb) for crumb in breadcrumbs.get("values") or []]
    return event


def scrub_breadcrumb(crumb: dict[str, Any], hint: Any = None) -> dict[str, Any]:
    """A breadcrumb (a log line, a query) keeps its kind and time; its text is masked, its data dropped
    (a query's parameters, a log line's values)."""
    crumb.pop("data", None)
    if isinstance(crumb.get("message"), str):
        crumb["message"] = scrub_text(crumb["message"])
    return crumb


def scrub_transaction(event: dict[str, Any], hint: Any = None) -> dict[str, Any]:
    """A performance trace (only with ``SENTRY_TRACES_SAMPLE_RATE`` above 0): as an error, and each
    span's data (a query's parameters) dropped and its description masked."""
    for span in event.get("spans") or []:
        span.pop("data", None)
        if isinstance(span.get("description"), str):
            span["description"] = scrub_text(span["description"])
    return scrub_event(event, hint)


def start(dsn: str, *, environment: str, release: str | None, traces_sample_rate: float) -> None:
    """Called by the settings when ``SENTRY_DSN`` is set (sentry_sdk is imported only then)."""
    import sentry_sdk

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release,
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        traces_sample_rate=traces_sample_rate,
        before_send=scrub_event,
        before_send_transaction=scrub_transaction,
        before_breadcrumb=scrub_breadcrumb,
    )
