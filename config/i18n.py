"""Django's JavaScript catalog at one address per language (``/jsi18n/es/?v=<catalog version>``).

The address names the language and the catalog's version, so the answer depends on nothing else: a
browser keeps it for a year and fetches it once per language, and a new compiled catalog gets a new
address. Each language's catalog is built once per process (compiled catalogs change only on a deploy).
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.utils import translation
from django.views.decorators.cache import cache_control
from django.views.i18n import JavaScriptCatalog

from classrooms import languages

_BUILT: dict[tuple[str, str], tuple[bytes, str]] = {}
ONE_YEAR = 60 * 60 * 24 * 365


@cache_control(public=True, max_age=ONE_YEAR, immutable=True)
def javascript_catalog(request, language: str):
    if languages.supported(language) != language:
        raise Http404
    return _catalog_response(request, language)


def current_javascript_catalog(request):
    """``/jsi18n/``: the catalog of the request's language (the middleware's choice). Its answer depends
    on the visitor, so it is not kept; pages use the per-language address (templatetags ``languages``)."""
    return _catalog_response(request, translation.get_language())


def _catalog_response(request, language: str) -> HttpResponse:
    key = (language, languages.catalog_version())
    if key not in _BUILT:
        with translation.override(language):
            built = JavaScriptCatalog.as_view()(request)
        _BUILT[key] = (built.content, built["Content-Type"])
    content, content_type = _BUILT[key]
    return HttpResponse(content, content_type=content_type)
