"""A Clever district or ClassLink tenant id belongs to one school: another school's admin cannot claim
it from the school settings (their students' sign-ins would span both schools, and the victim's would
be refused as ambiguous or found in the wrong school). Only the operator shares one between the schools
of a district, or moves it (``manage.py share_sso_id``)."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from classrooms.middleware import STUDENT_SESSION_KEY
from classrooms.models import School
from tests.classrooms.test_roster_signin import classlink_userinfo, clever_user, sign_in

pytestmark = pytest.mark.django_db
SETTINGS = "/school/settings/"
CLAIMED = "Another school already uses this"


def _settings_form(school, **ids):
    fields = {"name": school.name, "time_zone": "Europe/London", "default_language": ""}
    return fields | {"clever_district_id": "", "classlink_tenant_id": ""} | ids


@pytest.fixture
def connected_riverside(client, riverside, dr_patel):
    """Riverside's admin entered its Clever district and ClassLink tenant in the school settings."""
    client.force_login(dr_patel)
    response = client.post(
        SETTINGS, _settings_form(riverside, clever_district_id="d-river", classlink_tenant_id="2000")
    )
    assert response.status_code == 302
    client.logout()
    riverside.refresh_from_db()
    return riverside


@pytest.fixture
def rostered(ava, dan):
    """Ava (Riverside) and Dan (Hillside) are on their schools' rosters with the same SIS id."""
    for student in (ava, dan):
        student.external_id = "s-1001"
        student.save()
    return ava


def _sign_in_by_both(data):
    request, response = sign_in("clever", data[0])
    request_2, response_2 = sign_in("classlink", data[1])
    return [(request, response), (request_2, response_2)]


@pytest.mark.parametrize("case", [str, str.upper])
def test_another_schools_admin_cannot_claim_the_district(
    case, client, connected_riverside, hillside, mrs_lindqvist, rostered
):
    client.force_login(mrs_lindqvist)
    claim = {"clever_district_id": case("d-river"), "classlink_tenant_id": case("2000")}
    response = client.post(SETTINGS, _settings_form(hillside, **claim))
    assert response.status_code == 400
    page = response.content.decode()
    assert f"{CLAIMED} Clever district ID. A district ID belongs to one school" in page
    assert f"{CLAIMED} ClassLink tenant ID. A tenant ID belongs to one school" in page
    hillside.refresh_from_db()
    assert (hillside.clever_district_id, hillside.classlink_tenant_id) == ("", "")
    # Riverside's students still sign in, as Riverside's: Dan's same id is no ambiguity.
    for request, response in _sign_in_by_both((clever_user(), classlink_userinfo())):
        assert response.status_code == 302 and request.session[STUDENT_SESSION_KEY] == rostered.pk


def test_the_refusal_is_in_the_admins_language(client, connected_riverside, hillside, mrs_lindqvist):
    client.force_login(mrs_lindqvist)
    form = _settings_form(hillside, clever_district_id="d-river")
    response = client.post(SETTINGS, form, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400 and "Otra escuela ya usa este ID de distrito de Clever" in (
        response.content.decode()
    )


def test_the_rightful_school_keeps_saving_its_settings(client, connected_riverside, dr_patel):
    client.force_login(dr_patel)
    form = _settings_form(connected_riverside, clever_district_id="d-river", classlink_tenant_id="2000")
    assert client.post(SETTINGS, {**form, "name": "Riverside"}).status_code == 302
    connected_riverside.refresh_from_db()
    assert connected_riverside.name == "Riverside" and connected_riverside.clever_district_id == "d-river"


def test_the_operator_shares_a_district_between_its_schools(
    client, connected_riverside, hillside, mrs_lindqvist, ava, dan
):
    out = io.StringIO()
    school_ids = ["--school", str(connected_riverside.pk), "--school", "Hillside School"]
    call_command("share_sso_id", "--clever-district", "d-river", *school_ids, stdout=out)
    call_command("share_sso_id", "--classlink-tenant", "2000", *school_ids, stdout=io.StringIO())
    assert "Riverside Academy" in out.getvalue() and "shared with Hillside School" in out.getvalue()
    hillside.refresh_from_db()
    assert (hillside.clever_district_id, hillside.clever_district_shared) == ("d-river", True)
    assert (hillside.classlink_tenant_id, hillside.classlink_tenant_shared) == ("2000", True)
    # Each school's students sign in, found in their own school of the district.
    ava.external_id, dan.external_id = "s-1001", "s-2002"
    ava.save()
    dan.save()
    dan_data = (clever_user(sis_id="s-2002"), classlink_userinfo(SourcedId="s-2002"))
    for request, _response in _sign_in_by_both(dan_data):
        assert request.session[STUDENT_SESSION_KEY] == dan.pk
    for request, _response in _sign_in_by_both((clever_user(), classlink_userinfo())):
        assert request.session[STUDENT_SESSION_KEY] == ava.pk
    # Hillside's admin saving its settings keeps the shared id.
    client.force_login(mrs_lindqvist)
    form = _settings_form(hillside, clever_district_id="d-river", classlink_tenant_id="2000")
    assert client.post(SETTINGS, form).status_code == 302


def test_the_operator_moves_a_district_to_another_school(connected_riverside, hillside):
    out = io.StringIO()
    call_command("share_sso_id", "--clever-district", "D-RIVER", "--school", str(hillside.pk), stdout=out)
    assert f"Taken from Riverside Academy (id {connected_riverside.pk})" in out.getvalue()
    connected_riverside.refresh_from_db()
    hillside.refresh_from_db()
    assert connected_riverside.clever_district_id == "" and connected_riverside.classlink_tenant_id == "2000"
    assert (hillside.clever_district_id, hillside.clever_district_shared) == ("D-RIVER", False)


def test_the_operator_names_schools_it_can_find(riverside):
    with pytest.raises(CommandError, match="No school matches"):
        call_command("share_sso_id", "--clever-district", "d-1", "--school", "Nowhere High")


def test_the_database_holds_one_school_per_id_whatever_its_case(connected_riverside, hillside):
    hillside.clever_district_id = "D-River"
    with pytest.raises(IntegrityError), transaction.atomic():
        hillside.save()


@pytest.mark.django_db(transaction=True)
def test_the_migration_stops_on_schools_already_sharing_an_id_and_says_what_to_do():
    before = [("classrooms", "0012_enrolment_source")]
    after = [("classrooms", "0013_one_school_per_sign_in_id")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old_school = executor.loader.project_state(before).apps.get_model("classrooms", "School")
    try:
        old_school.objects.create(name="Riverside", clever_district_id="d-1")
        claimer = old_school.objects.create(name="Hillside", clever_district_id="D-1")
        named = r"Clever district 'd-1': Riverside \(id \d+\), Hillside"
        with pytest.raises(RuntimeError, match=named) as raised:
            MigrationExecutor(connection).migrate(after)
        assert "share_sso_id" in str(raised.value)
        old_school.objects.filter(pk=claimer.pk).update(clever_district_id="")
        MigrationExecutor(connection).migrate(after)
        assert School.objects.get(name="Riverside").clever_district_id == "d-1"
    finally:  # the next tests need the schema as it is now, whatever happened above
        old_school.objects.update(clever_district_id="")
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
