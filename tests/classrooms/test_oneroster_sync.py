"""Whole-school OneRoster 1.1 CSV sync: preview with every problem by file and line, all-or-nothing,
idempotent by sourcedId, tobedeleted archives (never deletes), teachers linked or invited, and the zip's
hostile shapes (bombs, traversal, encodings, formulas, size) refused with a clear reason."""

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse

from classrooms.models import Classroom, Enrolment, Invitation, RosterSync, Student
from classrooms.oneroster import OneRosterFileError, read_export
from tests.factories import UserFactory

from .oneroster_files import ORG, enrol, klass, manifest, school_tables, user, zip_bytes

pytestmark = pytest.mark.django_db


def read(data: bytes, **kw):
    return read_export(data, max_bytes=kw.get("max_bytes", 5_000_000), max_rows=kw.get("max_rows", 20_000))


def upload(client, data: bytes, name="oneroster.zip"):
    return client.post(reverse("roster_sync"), {"file": SimpleUploadedFile(name, data)})


def apply(client, response):
    assert response.status_code == 302, response.content[:500]
    applied = client.post(response["Location"], {"confirm": "1"})
    sync = RosterSync.objects.order_by("-id").first()
    assert (sync.status, sync.problems) == (RosterSync.Status.APPLIED, [])
    return applied


@pytest.fixture
def admin_client(client_of, dr_patel, ms_rivera, class_7b):
    return client_of(dr_patel)


# --- reading the export --------------------------------------------------------------------------


def test_a_real_shaped_export_reads_without_problems():
    export = read(zip_bytes())
    assert export.problems == []
    assert export.system == "Test SIS"
    assert [org.sourced_id for org in export.school_orgs()] == [ORG]
    assert export.users["s-1003"].given_name == "Chloé"  # the byte-order mark of users.csv is no problem
    assert export.classes["c-7d-mat"].subject == "Maths"  # from its course
    assert len(export.enrollments) == 6


def test_every_bad_row_is_reported_with_its_file_and_line():
    tables = school_tables()
    tables["users.csv"] += [
        user("s-2001", "student", "", "Nobody"),
        user("s 2002", "student", "Bad", "Id"),
        user("t-noemail", "teacher", "Tom", "Noemail"),
        user("s-2003", "pupil", "Role", "Wrong"),
        user("s-1001", "student", "Ava", "Again"),
        user("s-2004", "student", '=HYPERLINK("http://x")', "Formula"),
        user("s-2005", "student", "Status", "Odd", status="inactive"),
    ]
    tables["enrollments.csv"] += [enrol("e-9", "c-missing", "s-1001"), enrol("e-10", "c-7b-eng", "s-missing")]
    export = read(zip_bytes(tables))
    reasons = {(problem.file, problem.line): problem.reason for problem in export.problems}
    assert "givenName is empty" in reasons[("users.csv", 7)]
    assert "sourcedId may only hold" in reasons[("users.csv", 8)]
    assert "needs an email" in reasons[("users.csv", 9)]
    assert "role “pupil”" in reasons[("users.csv", 10)]
    assert "also on line 4" in reasons[("users.csv", 11)]
    assert "formula" in reasons[("users.csv", 12)]
    assert "status must be" in reasons[("users.csv", 13)]
    assert "c-missing is not in classes.csv" in reasons[("enrollments.csv", 8)]
    assert "s-missing is not in users.csv" in reasons[("enrollments.csv", 9)]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.pop("users.csv"), "does not hold it"),
        (lambda t: t.update({"manifest.csv": manifest(users="absent")}), "marks users.csv absent"),
        (lambda t: t.update({"manifest.csv": manifest(users="delta")}), "delta"),
        (
            lambda t: t.update({"manifest.csv": [{"propertyName": "oneroster.version", "value": "1.0"}]}),
            "version",
        ),
        (lambda t: t.pop("manifest.csv"), "no manifest.csv"),
    ],
)
def test_a_zip_missing_what_the_spec_needs_is_refused(change, message):
    tables = school_tables()
    change(tables)
    with pytest.raises(OneRosterFileError, match=message):
        read(zip_bytes(tables))


def test_a_file_with_misspelt_columns_is_refused_by_name():
    tables = school_tables()
    tables.pop("users.csv")
    bad = (
        "sourcedid,status,orgSourcedIds,role,givenName,familyName,email,grades\r\n"
        "s-1,active,org,student,A,B,,07\r\n"
    )
    data = zip_bytes(tables, raw={"users.csv": bad.encode()})
    with pytest.raises(OneRosterFileError, match=r"users.csv lacks .*sourcedId.*case-sensitive"):
        read(data)


def test_a_quote_never_closed_is_refused_naming_the_file_and_line():
    tables = school_tables()
    tables.pop("users.csv")
    broken = (
        "sourcedId,status,orgSourcedIds,role,givenName,familyName,email,grades\r\n"
        "s-1,active,org-riverside,student,Ava,Moreno,,07\r\n"
        's-2,active,org-riverside,student,"Ben,Kim,,07\r\n'
        "s-3,active,org-riverside,student,Chloe,Ng,,07\r\n"
    )
    with pytest.raises(
        OneRosterFileError, match=r"users.csv: line 3 opens a quote \(\"\) that is never closed"
    ):
        read(zip_bytes(tables, raw={"users.csv": broken.encode()}))


def test_a_file_that_is_not_utf8_is_refused_naming_the_file():
    tables = school_tables()
    tables.pop("users.csv")
    latin1 = (
        "sourcedId,status,orgSourcedIds,role,givenName,familyName,email,grades\r\n"
        "s-1,active,org,student,Zoë,B,,07\r\n"
    )
    with pytest.raises(OneRosterFileError, match=r"users.csv is not UTF-8"):
        read(zip_bytes(tables, raw={"users.csv": latin1.encode("latin-1")}))


def test_something_that_is_not_a_zip_is_refused():
    with pytest.raises(OneRosterFileError, match="not a zip"):
        read(b"sourcedId,givenName\ns1,Ava\n")


@pytest.mark.parametrize("name", ["../users.csv", "/etc/users.csv", "folder/../../x.csv", "C:\\users.csv"])
def test_a_zip_with_a_path_climbing_out_is_refused(name):
    with pytest.raises(OneRosterFileError, match="unsafe path"):
        read(zip_bytes(raw={name: b"x"}))


def test_a_zip_bomb_is_refused_before_it_is_unpacked():
    tables = school_tables()
    tables.pop("users.csv")
    bomb = b"sourcedId,status\r\n" + b"a" * 50_000_000  # 50 MB of one letter packs into ~50 KB
    data = zip_bytes(tables, raw={"users.csv": bomb})
    assert len(data) < 200_000
    with pytest.raises(OneRosterFileError, match=r"users.csv unpacks to more than"):
        read(data, max_bytes=20_000_000)


def test_a_zip_whose_header_lies_about_the_size_stops_at_the_limit(monkeypatch):
    data = zip_bytes()
    monkeypatch.setattr("classrooms.oneroster.MAX_RATIO", 10**9)
    with pytest.raises(OneRosterFileError, match="more than the limit"):
        read(data, max_bytes=len(data) + 500)  # the zip fits, what it unpacks to does not


def test_too_many_rows_are_refused_with_the_limit():
    tables = school_tables()
    tables["users.csv"] += [user(f"s-{n}", "student", "Kid", f"N{n}") for n in range(60)]
    with pytest.raises(OneRosterFileError, match=r"users.csv has more than 50 rows"):
        read(zip_bytes(tables), max_rows=50)


# --- the school admin's page ---------------------------------------------------------------------


def test_only_the_school_admin_may_sync(client_of, ms_rivera, mrs_lindqvist, dr_patel):
    assert client_of(ms_rivera).get(reverse("roster_sync")).status_code == 403
    assert upload(client_of(ms_rivera), zip_bytes()).status_code == 403
    assert not RosterSync.objects.exists()
    sync = RosterSync.objects.create(
        school=dr_patel.memberships.get().school, uploaded_by=dr_patel, data=zip_bytes()
    )
    # another school's admin cannot see or apply it
    response = client_of(mrs_lindqvist).post(reverse("roster_sync_preview", args=[sync.pk]), {"confirm": "1"})
    assert response.status_code == 404


def test_the_preview_counts_what_will_change_and_changes_nothing(admin_client, class_7b):
    response = upload(admin_client, zip_bytes())
    page = admin_client.get(response["Location"]).content.decode()
    assert "What will change" in page and "Apply the sync" in page
    sync = RosterSync.objects.get()
    assert sync.counts["students_created"] == 3
    assert sync.counts["classes_created"] == 1  # 7B English is the class the school already has
    assert sync.counts["teachers_invited"] == 1
    assert sync.counts["enrolled"] == 4
    assert Student.objects.count() == 0 and Classroom.objects.count() == 1 and not mail.outbox


def test_applying_creates_students_classes_links_teachers_and_invites_the_rest(
    admin_client, class_7b, ms_rivera
):
    response = apply(admin_client, upload(admin_client, zip_bytes()))
    assert response.status_code == 302
    class_7b.refresh_from_db()
    assert class_7b.external_id == "c-7b-eng"
    assert sorted(class_7b.enrolments.values_list("student__external_id", flat=True)) == ["s-1001", "s-1002"]
    maths = Classroom.objects.get(external_id="c-7d-mat")
    assert (maths.name, maths.subject, maths.grade) == ("7D Maths", "Maths", "07")
    assert list(maths.teachers.all()) == []  # its teacher is invited, and gets it on accepting
    chloe = Student.objects.get(external_id="s-1003")
    assert (chloe.display_name, chloe.grade, len(chloe.signin_code)) == ("Chloé D.", "07", 4)
    assert [message.to for message in mail.outbox] == [["haddad@riverside.example"]]
    sync = RosterSync.objects.get()
    assert sync.status == RosterSync.Status.APPLIED and sync.applied_at and sync.data == b""
    assert sync.school.roster_org_id == ORG
    page = admin_client.get(reverse("roster_sync")).content.decode()
    assert "Applied" in page and "3 new, 0 updated, 0 archived" in page


def test_the_invited_teacher_gets_their_rostered_classes_on_accepting(admin_client, client):
    apply(admin_client, upload(admin_client, zip_bytes()))
    invitation = Invitation.objects.get(email="haddad@riverside.example")
    haddad = UserFactory(email="haddad@riverside.example")
    client.force_login(haddad)
    client.post(reverse("invitation_accept", args=[invitation.token]))
    assert list(Classroom.objects.get(external_id="c-7d-mat").teachers.all()) == [haddad]


def test_uploading_the_same_export_again_changes_nothing(admin_client):
    apply(admin_client, upload(admin_client, zip_bytes()))
    before = (
        list(Student.objects.values_list("id", "display_name", "signin_code")),
        list(Enrolment.objects.values_list("student_id", "classroom_id")),
        list(Classroom.objects.values_list("id", "name", "join_code")),
    )
    apply(admin_client, upload(admin_client, zip_bytes()))
    second = RosterSync.objects.order_by("-id").first()
    assert set(second.counts.values()) == {0}
    assert len(mail.outbox) == 1  # the waiting invitation is not sent twice
    after = (
        list(Student.objects.values_list("id", "display_name", "signin_code")),
        list(Enrolment.objects.values_list("student_id", "classroom_id")),
        list(Classroom.objects.values_list("id", "name", "join_code")),
    )
    assert after == before


def test_updates_and_tobedeleted_rows_are_applied_and_learning_data_kept(admin_client):
    apply(admin_client, upload(admin_client, zip_bytes()))
    ben = Student.objects.get(external_id="s-1002")
    tables = school_tables()
    tables["users.csv"][3] = user("s-1002", "student", "Benjamin", "Kim", grades="08")
    tables["users.csv"][2] = user("s-1001", "student", "Ava", "Moreno", status="tobedeleted")
    tables["classes.csv"][1] = klass(
        "c-7d-mat", "7D Maths", "7D-MAT", course="course-mat7", status="tobedeleted"
    )
    tables["enrollments.csv"][3] = enrol("e-4", "c-7b-eng", "s-1002", status="tobedeleted")
    apply(admin_client, upload(admin_client, zip_bytes(tables)))
    counts = RosterSync.objects.order_by("-id").first().counts
    assert (counts["students_updated"], counts["students_archived"], counts["classes_archived"]) == (1, 1, 1)
    assert counts["unenrolled"] == 1
    ben.refresh_from_db()
    assert (ben.display_name, ben.grade, ben.pk) == ("Benjamin K.", "08", ben.pk)
    ava = Student.objects.get(external_id="s-1001")  # archived, never deleted
    assert ava.archived_at is not None and not ava.enrolments.exists()
    assert Classroom.objects.get(external_id="c-7d-mat").archived
    assert not Enrolment.objects.filter(student=ben, classroom__external_id="c-7b-eng").exists()


def test_one_problem_refuses_the_whole_sync(admin_client):
    tables = school_tables()
    tables["users.csv"].append(user("s-9", "student", "", "Empty"))
    response = upload(admin_client, zip_bytes(tables))
    page = admin_client.get(response["Location"]).content.decode()
    assert "users.csv" in page and "givenName is empty" in page and "Apply the sync" not in page
    admin_client.post(response["Location"], {"confirm": "1"})
    assert Student.objects.count() == 0 and RosterSync.objects.get().status == "previewed"


def test_a_class_title_taken_by_another_rostered_class_is_a_problem(admin_client, riverside):
    Classroom.objects.create(school=riverside, name="7D Maths", external_id="c-old")
    upload(admin_client, zip_bytes())
    problem = RosterSync.objects.get().problems[0]
    assert (problem["file"], problem["line"]) == ("classes.csv", 3)
    assert "c-old" in problem["reason"]


def test_an_export_with_several_schools_asks_which_one(admin_client):
    tables = school_tables()
    tables["orgs.csv"].append({"sourcedId": "org-hill", "status": "active", "name": "Hill", "type": "school"})
    response = upload(admin_client, zip_bytes(tables))
    page = admin_client.get(response["Location"]).content.decode()
    assert "several schools" in page and "org-hill" in page
    admin_client.post(response["Location"], {"org": ORG})
    sync = RosterSync.objects.get()
    assert sync.org_id == ORG and sync.problems == [] and sync.counts["students_created"] == 3


def test_a_broken_upload_shows_its_reason_and_keeps_nothing(admin_client):
    response = upload(admin_client, zip_bytes(raw={"../../evil.csv": b"x"}))
    assert response.status_code == 400
    assert "unsafe path" in response.content.decode()
    assert not RosterSync.objects.exists()


@override_settings(ROSTER_SYNC_MAX_BYTES=2000)
def test_a_huge_upload_is_refused_with_the_limit(admin_client):
    response = upload(admin_client, b"PK" + b"\0" * 5000)
    assert response.status_code == 400 and "too large" in response.content.decode()


def test_a_ten_thousand_student_school_syncs(admin_client):
    tables = school_tables()
    tables["users.csv"] += [user(f"s-{n:05d}", "student", "Kid", f"Number{n}") for n in range(10_000)]
    tables["classes.csv"] += [klass(f"c-{n}", f"Year 8 group {n}", f"8-{n}") for n in range(40)]
    tables["enrollments.csv"] += [enrol(f"e-x{n}", f"c-{n % 40}", f"s-{n:05d}") for n in range(10_000)]
    data = zip_bytes(tables)
    apply(admin_client, upload(admin_client, data))
    assert Student.objects.count() == 10_003
    assert Enrolment.objects.count() == 10_004
    response = apply(admin_client, upload(admin_client, data))
    assert response.status_code == 302
    assert set(RosterSync.objects.order_by("-id").first().counts.values()) == {0}


def test_archived_students_leave_the_school_count_and_a_class_import_brings_them_back(
    admin_client, client_of, ms_rivera, dr_patel, class_7b
):
    apply(admin_client, upload(admin_client, zip_bytes()))
    tables = school_tables()
    tables["users.csv"][2] = user("s-1001", "student", "Ava", "Moreno", status="tobedeleted")
    apply(admin_client, upload(admin_client, zip_bytes(tables)))
    overview = admin_client.get(reverse("school_overview")).content.decode()
    assert "2 students" in overview

    def import_ava(client):
        csv_file = SimpleUploadedFile("roster.csv", b"sourcedId,givenName,familyName\ns-1001,Ava,Moreno\n")
        client.post(reverse("roster_import", args=[class_7b.pk]), {"file": csv_file})
        client.post(reverse("roster_import", args=[class_7b.pk]), {"confirm": "1"})
        return Student.objects.get(external_id="s-1001")

    # her teacher does not teach her any more: a conflict, as for any student outside her classes
    assert import_ava(client_of(ms_rivera)).archived_at is not None
    ava = import_ava(client_of(dr_patel))
    assert ava.archived_at is None and ava.enrolments.filter(classroom=class_7b).exists()


def test_a_new_upload_drops_the_earlier_unapplied_preview(admin_client):
    first = upload(admin_client, zip_bytes())
    upload(admin_client, zip_bytes())
    assert RosterSync.objects.count() == 1
    assert admin_client.post(first["Location"], {"confirm": "1"}).status_code == 404
    assert Student.objects.count() == 0


def test_a_ten_thousand_row_export_full_of_errors_lists_them_page_by_page(admin_client):
    tables = school_tables()
    tables["users.csv"] += [user(f"bad id {n}", "student", "Kid", f"N{n}") for n in range(10_000)]
    tables["users.csv"].append(user("t-x", "teacher", "Tom", "X", email="=cmd|' /C calc'!A0"))
    response = upload(admin_client, zip_bytes(tables))
    page = admin_client.get(response["Location"]).content.decode()
    assert RosterSync.objects.get().problems[-1]["reason"].startswith("a teacher needs an email")
    assert "users.csv" in page and "…and 9701 more problems." in page
    assert page.count("sourcedId may only hold") == 300
