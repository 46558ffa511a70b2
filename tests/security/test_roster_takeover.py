"""A roster import creates students and updates the importer's own: a roster id that belongs to a
colleague's student is a conflict in the preview, never a takeover (renamed, re-levelled, enrolled and
reported to the importer). A school admin may resolve it."""

import pytest

from classrooms.models import LevelChange, Student
from tests.classrooms.test_roster import confirm, upload
from tests.factories import enrolled_student

pytestmark = pytest.mark.django_db

FILE = "sourcedId,givenName,familyName,grades,class,englishLevel,numeracyLevel\n{row}\n"


@pytest.fixture
def cleos_record(class_7c):
    return enrolled_student(
        class_7c, given_name="Cleo", family_name="Park", display_name="Cleo P.", external_id="s-777"
    )


def test_a_teacher_cannot_take_over_a_colleagues_student(
    client_of, ms_rivera, class_7b, class_7c, cleos_record
):
    client = client_of(ms_rivera)
    preview = upload(
        client, class_7b, FILE.format(row="s-777,Mallory,Evil,07,,5,5").encode()
    ).content.decode()
    assert "belongs to a student of another class (7C" in preview
    assert "Import all" not in preview
    confirm(client, class_7b)
    cleos_record.refresh_from_db()
    assert (cleos_record.given_name, cleos_record.display_name) == ("Cleo", "Cleo P.")
    assert not cleos_record.enrolments.filter(classroom=class_7b).exists()
    assert not LevelChange.objects.filter(student=cleos_record).exists()


def test_the_school_admin_may_add_them_to_the_class(client_of, dr_patel, class_7b, cleos_record):
    client = client_of(dr_patel)
    upload(client, class_7b, FILE.format(row="s-777,Cleo,Park,07,,3,").encode())
    confirm(client, class_7b)
    assert cleos_record.enrolments.filter(classroom=class_7b).exists()


def test_a_teacher_still_updates_their_own_students(client_of, ms_rivera, class_7b):
    mine = enrolled_student(class_7b, given_name="Ava", family_name="Moreno", external_id="s-001")
    client = client_of(ms_rivera)
    upload(client, class_7b, FILE.format(row="s-001,Ava,Moreno-Diaz,07,,2,").encode())
    confirm(client, class_7b)
    mine.refresh_from_db()
    assert mine.family_name == "Moreno-Diaz"
    assert Student.objects.count() == 1
