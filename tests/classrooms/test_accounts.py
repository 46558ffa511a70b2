"""Staff accounts: email sign-up with verification, invitations by email link, guessing protection."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse

from classrooms.models import Invitation, Membership, User

pytestmark = pytest.mark.django_db


def test_a_teacher_signs_up_by_email_and_must_verify_it(client):
    response = client.post(
        reverse("account_signup"),
        {
            "email": "new.teacher@school.example",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
    )
    assert response.status_code == 302
    assert User.objects.filter(email="new.teacher@school.example").exists()
    assert not EmailAddress.objects.get(email="new.teacher@school.example").verified
    assert "confirm" in mail.outbox[0].body.lower()


def test_the_verification_link_verifies_and_signs_in(client):
    client.post(
        reverse("account_signup"),
        {
            "email": "new.teacher@school.example",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
    )
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", mail.outbox[0].body).group(0)
    client.post(link.split("testserver")[-1])
    assert EmailAddress.objects.get(email="new.teacher@school.example").verified


def test_password_reset_sends_a_link(client, ms_rivera):
    client.post(reverse("account_reset_password"), {"email": ms_rivera.email})
    assert "password" in mail.outbox[-1].subject.lower()


def test_repeated_failed_logins_are_rate_limited(client, ms_rivera):
    for _attempt in range(5):
        client.post(reverse("account_login"), {"login": ms_rivera.email, "password": "wrong"})
    response = client.post(
        reverse("account_login"), {"login": ms_rivera.email, "password": "correct-horse-battery"}
    )
    assert response.status_code in (200, 429)
    assert "_auth_user_id" not in client.session


def test_a_school_admin_invites_a_teacher_who_signs_up_verified(client, client_of, dr_patel, riverside):
    client_of(dr_patel).post(
        reverse("school_overview"), {"email": "Newbie@School.example", "role": "teacher"}
    )
    invitation = Invitation.objects.get()
    assert invitation.email == "newbie@school.example"
    assert invitation.token in mail.outbox[-1].body
    client.logout()
    response = client.get(reverse("invitation_accept", args=[invitation.token]))
    assert reverse("account_signup") in response["Location"]
    client.post(
        reverse("account_signup"),
        {
            "email": "newbie@school.example",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
    )
    newbie = User.objects.get(email="newbie@school.example")
    assert EmailAddress.objects.get(user=newbie).verified
    client.get(reverse("invitation_accept", args=[invitation.token]))
    assert Membership.objects.get(user=newbie).school == riverside
    invitation.refresh_from_db()
    assert invitation.accepted_at is not None


def test_an_invited_admin_becomes_admin(client_of, dr_patel, mr_moss, riverside):
    client_of(dr_patel).post(reverse("school_overview"), {"email": "someone@else.example", "role": "admin"})
    invitation = Invitation.objects.get()
    invitation.email = mr_moss.email
    invitation.save()
    client = client_of(mr_moss)
    client.get(reverse("invitation_accept", args=[invitation.token]))
    assert Membership.objects.get(user=mr_moss, school=riverside).role == Membership.Role.ADMIN


def test_an_invitation_for_someone_else_is_refused(client_of, dr_patel, mr_okafor):
    client_of(dr_patel).post(reverse("school_overview"), {"email": "someone@else.example", "role": "admin"})
    invitation = Invitation.objects.get()
    response = client_of(mr_okafor).get(reverse("invitation_accept", args=[invitation.token]))
    assert response.status_code == 403
    assert not Membership.objects.filter(user=mr_okafor, role="admin").exists()


def test_a_used_or_unknown_invitation_cannot_be_used(client):
    assert client.get(reverse("invitation_accept", args=["nope"])).status_code == 410


def test_inviting_an_existing_member_is_refused(client_of, dr_patel, ms_rivera):
    response = client_of(dr_patel).post(
        reverse("school_overview"), {"email": ms_rivera.email, "role": "teacher"}
    )
    assert response.status_code == 400
    assert "already a member" in response.content.decode()
    assert not Invitation.objects.exists()


def test_a_teacher_cannot_invite(client_of, ms_rivera):
    response = client_of(ms_rivera).post(
        reverse("school_overview"), {"email": "x@y.example", "role": "admin"}
    )
    assert response.status_code == 403
    assert not Invitation.objects.exists()


def test_a_password_reset_email_comes_from_classplay_in_the_pages_language(client, ms_rivera):
    client.post(
        reverse("account_reset_password"), {"email": ms_rivera.email}, headers={"accept-language": "es"}
    )
    email = mail.outbox[-1]
    assert email.subject == "[Classplay] Correo electrónico para restablecer contraseña"
    assert email.body.startswith("¡Hola de parte de Classplay!")
    assert "¡Gracias por usar Classplay!" in email.body
    # The link keeps the site's own address.
    assert "http://testserver/accounts/password/reset/key/" in email.body
    assert "testserver]" not in email.subject and "de parte de testserver" not in email.body


def test_a_verification_email_greets_from_classplay(client):
    client.post(
        reverse("account_signup"),
        {
            "email": "new.teacher@school.example",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
    )
    email = mail.outbox[-1]
    assert email.subject.startswith("[Classplay] ")
    assert email.body.startswith("Hello from Classplay!")
