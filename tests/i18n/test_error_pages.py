"""The error pages under production settings (DEBUG off): the site's layout and header, a sentence in
the reader's language and a way back, never Django's bare English "Not Found". The 500 page renders
as Django renders it, with no request and no database."""

from __future__ import annotations

import pytest
from django.core.exceptions import SuspiciousOperation
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse
from django.utils import translation
from django.views import defaults

pytestmark = pytest.mark.django_db


def _page(response) -> str:
    return response.content.decode()


@override_settings(DEBUG=False)
def test_a_missing_page_says_so_in_the_readers_language_with_the_sites_header(client):
    response = client.get("/no-such-page/", headers={"accept-language": "es"})
    assert response.status_code == 404
    page = _page(response)
    assert '<html lang="es" dir="ltr">' in page
    assert 'class="site-header"' in page and 'class="language-switcher"' in page
    assert "Página no encontrada" in page and "Not Found" not in page
    assert f'href="{reverse("home")}"' in page and f'href="{reverse("account_login")}"' in page
    response = client.get("/no-such-page/", headers={"accept-language": "ar"})
    page = _page(response)
    assert '<html lang="ar" dir="rtl">' in page and "الصفحة غير موجودة" in page


@override_settings(DEBUG=False)
def test_a_page_someone_may_not_open_says_so_in_their_language(client_of, ms_rivera):
    ms_rivera.language = "es"
    ms_rivera.save(update_fields=["language"])
    response = client_of(ms_rivera).get(reverse("school_overview"))  # a teacher, not the school's admin
    assert response.status_code == 403
    page = _page(response)
    assert "No permitido" in page and "403 Forbidden" not in page
    # Signed in: the header is theirs, and no sign-in link is offered.
    assert "Ms Rivera" in page and f'href="{reverse("account_login")}"' not in page


def _request(language: str):
    request = RequestFactory().get("/broken/", headers={"accept-language": language})
    request.LANGUAGE_CODE = language
    return request


@override_settings(DEBUG=False)
def test_a_bad_request_says_so_in_the_readers_language():
    with translation.override("pt-br"):
        response = defaults.bad_request(_request("pt-br"), SuspiciousOperation())
    assert response.status_code == 400
    assert "Solicitação inválida" in _page(response)


@override_settings(DEBUG=False)
def test_a_server_error_page_renders_without_a_request_or_the_database(django_assert_num_queries):
    # Django renders 500.html with an empty context, in the language the request had activated.
    with translation.override("ar"), django_assert_num_queries(0):
        response = defaults.server_error(_request("ar"))
    assert response.status_code == 500
    page = _page(response)
    assert '<html lang="ar" dir="rtl">' in page and "حدث خطأ ما" in page
    assert 'class="site-header"' in page and f'href="{reverse("home")}"' in page
    # No language switcher without a CSRF token to post it with.
    assert 'class="language-switcher"' not in page
    with translation.override("es"):
        assert "Algo salió mal" in _page(defaults.server_error(_request("es")))


@override_settings(DEBUG=False)
def test_a_form_refused_by_the_csrf_check_says_so_in_the_readers_language():
    """Django's own CSRF page is bare English ("403 Forbidden ... CSRF verification failed")."""
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("account_login"), {"login": "x"}, headers={"accept-language": "es"})
    assert response.status_code == 403
    page = _page(response)
    assert "No se pudo enviar el formulario" in page and "CSRF verification failed" not in page
    assert 'class="site-header"' in page and f'href="{reverse("home")}"' in page
