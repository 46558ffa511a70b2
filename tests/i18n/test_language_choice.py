"""Which language each page speaks: the switcher, the student's (set by the teacher), the teacher's own,
the school's, the browser's, then English; `<html lang dir>`; the switcher on every kind of page."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.urls import reverse

from classrooms import languages
from classrooms.models import Student
from tests.factories import started_session

pytestmark = pytest.mark.django_db


def html_tag(response) -> tuple[str, str]:
    match = re.search(r'<html lang="([^"]+)" dir="(ltr|rtl)">', response.content.decode())
    assert match, "the page has no <html lang dir>"
    return match.group(1), match.group(2)


def signin(client, classroom, student, code):
    return client.post(reverse("join_signin", args=[classroom.join_code, student.pk]), {"code": code})


# --- the order ------------------------------------------------------------------------------------


def test_the_browser_language_is_the_default_and_english_the_last_resort():
    assert languages.resolve(accept_language="pt-BR,pt;q=0.9,en;q=0.5") == "pt-br"
    assert languages.resolve(accept_language="es-MX,es;q=0.9") == "es"
    assert languages.resolve(accept_language="fr-FR, ar;q=0.8") == "ar"
    assert languages.resolve(accept_language="fr-FR, de") == "en"
    assert languages.resolve() == "en"


def test_the_switcher_choice_outranks_everything(ava, ms_rivera):
    ava.language = "es"
    ms_rivera.language = "ar"
    assert languages.resolve(chosen="pt-br", student=ava, accept_language="ar") == "pt-br"
    assert languages.resolve(chosen="pt-br", user=ms_rivera, cookie="es") == "pt-br"
    assert languages.resolve(chosen="klingon", student=ava) == "es"  # a made-up choice counts for nothing


def test_a_student_reads_their_own_language_then_their_school_default_never_the_device_cookie(ava):
    ava.language = "ar"
    assert languages.resolve(student=ava, cookie="es", accept_language="pt-BR") == "ar"
    ava.language = ""
    ava.school.default_language = "es"
    assert languages.resolve(student=ava, cookie="pt-br", accept_language="ar") == "es"
    ava.school.default_language = ""
    assert languages.resolve(student=ava, cookie="pt-br", accept_language="ar") == "ar"


def test_staff_read_the_device_choice_then_their_own_then_their_school_default(ms_rivera, riverside):
    riverside.default_language = "pt-br"
    riverside.save()
    ms_rivera.language = "es"
    assert languages.resolve(user=ms_rivera, cookie="ar", accept_language="en") == "ar"
    assert languages.resolve(user=ms_rivera, accept_language="en") == "es"
    ms_rivera.language = ""
    assert languages.resolve(user=ms_rivera, accept_language="en") == "pt-br"
    riverside.default_language = ""
    riverside.save()
    assert languages.resolve(user=ms_rivera, accept_language="ar") == "ar"


# --- pages ----------------------------------------------------------------------------------------


def test_arabic_pages_are_right_to_left_and_the_others_left_to_right(client):
    assert html_tag(client.get(reverse("join"), headers={"accept-language": "ar"})) == ("ar", "rtl")
    assert html_tag(client.get(reverse("join"), headers={"accept-language": "es"})) == ("es", "ltr")
    response = client.get(reverse("join"), headers={"accept-language": "pt-BR"})
    assert html_tag(response) == ("pt-br", "ltr")
    assert response["Content-Language"] == "pt-br"


def test_the_switcher_is_on_every_kind_of_page(
    client, client_of, student_client, class_7b, ms_rivera, ava, ben
):
    session = started_session(class_7b, ms_rivera, [ava, ben], "lineup")
    anonymous = [
        reverse("join"),
        reverse("join_pick", args=[class_7b.join_code]),
        reverse("join_signin", args=[class_7b.join_code, ava.pk]),
        reverse("account_login"),
        reverse("games:game_how_to_play", args=["lineup"]),
    ]
    for url in anonymous:
        _assert_switcher(client.get(url), url)
    client_of(ms_rivera)
    staff = [
        reverse("dashboard"),
        reverse("preferences"),
        reverse("classroom_detail", args=[class_7b.pk]),
        reverse("student_detail", args=[ava.pk]),
        reverse("games:console", args=[session.pk]),
        reverse("games:projector", args=[session.pk]),
        reverse("reports:index"),
    ]
    for url in staff:
        _assert_switcher(client.get(url), url)
    client.logout()
    student_client(ava)
    for url in [reverse("student_home"), reverse("games:play", args=[session.pk])]:
        _assert_switcher(client.get(url), url)


def _assert_switcher(response, url):
    assert response.status_code == 200, url
    page = response.content.decode()
    assert page.count('class="language-switcher"') == 1, url
    form = page[page.index('class="language-switcher"') :]
    form = form[: form.index("</form>")]
    assert f'action="{reverse("set_language")}"' in form, url
    select = re.search(r'<select id="([^"]+)" name="language"', form)
    assert select and f'<label for="{select.group(1)}">' in form, f"{url}: the select has no label"
    for code, _name in settings.LANGUAGES:
        assert f'<option value="{code}" lang="{code}"' in form, url
    assert '<button class="small secondary">' in form, url  # a submit button (the default type)
    assert "onchange" not in form, url  # no inline script: the Content-Security-Policy forbids it


def test_the_switcher_changes_the_language_and_comes_back_to_the_page(client):
    response = client.post(reverse("set_language"), {"language": "ar", "next": reverse("join")})
    assert response.status_code == 302 and response["Location"] == reverse("join")
    assert client.session[languages.LANGUAGE_CHOICE_KEY] == "ar"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ar"
    assert html_tag(client.get(reverse("join"), headers={"accept-language": "es"})) == ("ar", "rtl")


def test_the_switcher_refuses_a_language_the_site_does_not_ship_and_a_get(client):
    client.post(reverse("set_language"), {"language": "xx", "next": reverse("join")})
    assert languages.LANGUAGE_CHOICE_KEY not in client.session
    assert client.get(reverse("set_language")).status_code == 405


def test_a_students_device_follows_the_student_not_the_device(client, class_7b, ava, ben):
    Student.objects.filter(pk=ava.pk).update(language="es")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ar"  # an earlier visitor's choice on this device
    assert html_tag(client.get(reverse("join"))) == ("ar", "rtl")
    signin(client, class_7b, ava, "4821")
    assert html_tag(client.get(reverse("student_home"), headers={"accept-language": "pt-BR"})) == (
        "es",
        "ltr",
    )
    client.post(reverse("student_signout"))
    signin(client, class_7b, ben, "1357")  # Ben has no language: his school has none, so his browser's
    assert html_tag(client.get(reverse("student_home"), headers={"accept-language": "pt-BR"}))[0] == "pt-br"


def test_a_language_picked_on_the_way_in_is_kept_and_a_previous_students_is_not(client, class_7b, ava, ben):
    Student.objects.filter(pk=ava.pk).update(language="es")
    client.post(reverse("set_language"), {"language": "ar", "next": "/"})
    signin(client, class_7b, ava, "4821")
    assert html_tag(client.get(reverse("student_home")))[0] == "ar"  # she chose it before signing in
    # Ava leaves without signing out; Ben signs in on the same device: her choice is not his.
    signin(client, class_7b, ben, "1357")
    assert html_tag(client.get(reverse("student_home"), headers={"accept-language": "en"}))[0] == "en"


# --- where teachers and admins set them ------------------------------------------------------------


def test_a_teacher_sets_a_students_language_on_the_student_page(client, client_of, ms_rivera, class_7b, ava):
    client_of(ms_rivera)
    url = reverse("student_detail", args=[ava.pk])
    assert 'name="language"' in client.get(url).content.decode()
    response = client.post(url, {"action": "language", "class": class_7b.pk, "language": "ar"})
    assert response.status_code == 302
    ava.refresh_from_db()
    assert ava.language == "ar"
    refused = client.post(url, {"action": "language", "class": class_7b.pk, "language": "fr"})
    assert refused.status_code == 400
    ava.refresh_from_db()
    assert ava.language == "ar"
    client.post(url, {"action": "language", "class": class_7b.pk, "language": ""})
    ava.refresh_from_db()
    assert ava.language == ""


def test_a_teacher_chooses_their_own_language(client, client_of, ms_rivera):
    client_of(ms_rivera)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ar"
    response = client.post(reverse("preferences"), {"language": "es"})
    assert response.status_code == 302
    ms_rivera.refresh_from_db()
    assert ms_rivera.language == "es"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == ""  # the device's old choice goes
    assert html_tag(client.get(reverse("dashboard"), headers={"accept-language": "ar"})) == ("es", "ltr")


def test_an_admin_sets_the_school_default_and_staff_without_their_own_follow_it(
    client, client_of, dr_patel, ms_rivera, riverside
):
    client_of(dr_patel)
    url = reverse("school_settings")
    assert 'name="default_language"' in client.get(url).content.decode()
    data = {"name": riverside.name, "time_zone": "Europe/London", "default_language": "pt-br"}
    assert client.post(url, data).status_code == 302
    riverside.refresh_from_db()
    assert riverside.default_language == "pt-br"
    assert client.post(url, {**data, "default_language": "zz"}).status_code == 400
    client.logout()
    client_of(ms_rivera)
    assert html_tag(client.get(reverse("dashboard"), headers={"accept-language": "ar"}))[0] == "pt-br"


# --- the JavaScript catalog -----------------------------------------------------------------------


def test_every_page_loads_its_languages_catalog_before_any_other_script(
    client, client_of, ms_rivera, class_7b, ava
):
    session = started_session(class_7b, ms_rivera, [ava], "lineup")
    client_of(ms_rivera)
    client.post(reverse("set_language"), {"language": "es", "next": "/"})
    for url in [reverse("dashboard"), reverse("games:console", args=[session.pk])]:
        page = client.get(url).content.decode()
        scripts = re.findall(r'<script src="([^"]+)"', page)
        assert scripts[0].startswith("/jsi18n/es/?v="), url
        assert page.count("/jsi18n/") == 1, url


def test_the_catalog_is_one_cacheable_address_per_language(client, catalogs):
    spanish = client.get("/jsi18n/es/", headers={"accept-language": "ar"})
    assert spanish.status_code == 200
    assert "Intentar ahora" in spanish.content.decode()
    assert "max-age=31536000" in spanish["Cache-Control"] and "public" in spanish["Cache-Control"]
    assert json.dumps("حاول الآن")[1:-1] in client.get("/jsi18n/ar/").content.decode()  # as \u escapes
    assert client.get("/jsi18n/xx/").status_code == 404
    assert client.get("/jsi18n/pt-BR/").status_code == 404  # one spelling per language: one cache entry
    # The address without a language answers in the visitor's (older pages), and is not kept.
    current = client.get(reverse("javascript-catalog"), headers={"accept-language": "ar"})
    assert json.dumps("حاول الآن")[1:-1] in current.content.decode()
    assert "max-age" not in current.get("Cache-Control", "")


@pytest.mark.parametrize(
    ("accept", "label"), [("en", "Language"), ("es", "Idioma"), ("pt-BR", "Idioma"), ("ar", "اللغة")]
)
def test_the_switcher_names_every_language_in_its_own_language_whatever_the_pages(client, accept, label):
    """English is "English" on a Spanish page too (never "Inglés"), and the selector is the interface's
    "Idioma", not the school subject's "Lengua"."""
    page = client.get(reverse("join"), headers={"accept-language": accept}).content.decode()
    form = page[page.index('class="language-switcher"') :]
    form = form[: form.index("</form>")]
    names = re.findall(r'<option value="([^"]+)" lang="[^"]+"[^>]*>([^<]+)</option>', form)
    assert names == [("en", "English"), ("es", "Español"), ("pt-br", "Português (Brasil)"), ("ar", "العربية")]
    assert re.search(r"</svg>\s*" + label + "</label>", form), form
