"""The language switcher on every page, and a member of staff's own language."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from . import languages, services
from .forms import LanguageForm


@require_POST
def choose_language(request):
    """Django's ``set_language`` (the cookie, the safe redirect back), and the choice kept for this visit
    too: it outranks the student's and the teacher's own language until the visit ends."""
    response = set_language(request)
    chosen = languages.supported(request.POST.get("language"))
    if chosen is not None:
        request.session[languages.LANGUAGE_CHOICE_KEY] = chosen
    return response


@login_required
def preferences(request):
    """A teacher's or admin's language for every page, on every device they sign in on."""
    form = LanguageForm(
        request.POST or None,
        initial={"language": request.user.language},
        blank_label=_("My school's default"),
        help_text=_("Pages, games, emails and downloads use this language wherever you sign in."),
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.user_language_set(user=request.user, language=form.cleaned_data["language"])
        except ValidationError as error:
            form.add_error("language", error.messages)
        else:
            # The new language takes over now, in place of a switcher choice made earlier in this visit.
            request.session.pop(languages.LANGUAGE_CHOICE_KEY, None)
            chosen = request.user.language or languages.staff_school_language(request.user)
            with translation.override(languages.supported(chosen) or translation.get_language()):
                messages.success(request, _("Language saved."))
            response = redirect("preferences")
            response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
            return response
    status = 400 if form.errors else 200
    return render(request, "classrooms/preferences.html", {"form": form}, status=status)
