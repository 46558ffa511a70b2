"""A form sent twice is saved once: a double click, a resend after a slow answer or a reload would
otherwise schedule two games, add a student twice or send two invitations.

Each form carries a one-time token (``{% once_token %}`` in the template); ``@once`` on the view lets
the first POST with a token through and answers any later one with the first one's result (where it
went), or, while the first is still being saved, with a short "already being saved" page. The tokens
live in the cache for an hour (the database's cache table while Redis is down)."""

from __future__ import annotations

import functools
import secrets

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

FIELD = "once_token"
KEEP_SECONDS = 3600
PENDING = "pending"


def new_token() -> str:
    return secrets.token_urlsafe(16)


def once(view):
    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        token = request.POST.get(FIELD, "") if request.method == "POST" else ""
        if not token or len(token) > 64:
            return view(request, *args, **kwargs)
        who = request.user.pk if request.user.is_authenticated else request.session.session_key
        key = f"classplay:once:{view.__module__}.{view.__name__}:{who}:{token}"
        if not cache.add(key, PENDING, KEEP_SECONDS):
            done = cache.get(key)
            if done and done != PENDING:
                messages.info(request, _("That was already saved: it was sent twice."))
                return redirect(done)
            return HttpResponse(_("Already being saved. Wait a moment, then reload the page."), status=409)
        response = view(request, *args, **kwargs)
        if response.status_code in (301, 302, 303) and response.get("Location"):
            cache.set(key, response["Location"], KEEP_SECONDS)
        else:  # not saved (the form had errors): the same form may be sent again
            cache.delete(key)
        return response

    return wrapper
