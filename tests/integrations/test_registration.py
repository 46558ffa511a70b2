"""A school admin registers the school's LMS and finds the tool's own values to paste into it."""

import io

import jwt
import pytest
from django.core.management import call_command
from django.urls import reverse

from integrations import keys
from integrations.models import Platform, ToolKey

from .platform import DEPLOYMENT_ID, LmsPlatform

pytestmark = pytest.mark.django_db


def test_the_admin_registers_a_platform_and_sees_what_to_paste(client, dr_patel, riverside):
    client.force_login(dr_patel)
    data = dict(LmsPlatform.registration, deployment_ids=f"{DEPLOYMENT_ID}\n second \n\n")
    response = client.post(reverse("integrations:platform_new"), data)
    assert response.status_code == 302
    platform = Platform.objects.get()
    assert platform.school == riverside and platform.deployment_ids == [DEPLOYMENT_ID, "second"]

    page = client.get(reverse("integrations:platforms")).content.decode()
    assert "Riverside Moodle" in page
    for path in ("/lti/jwks/", "/lti/login/", "/lti/launch/"):
        assert f"http://testserver{path}" in page
    assert "new window" in page


def test_a_teacher_cannot_register_platforms(client, ms_rivera):
    client.force_login(ms_rivera)
    assert client.get(reverse("integrations:platforms")).status_code == 403
    assert client.post(reverse("integrations:platform_new"), LmsPlatform.registration).status_code == 403
    assert not Platform.objects.exists()


def test_an_admin_edits_only_their_own_schools_platforms(client, mrs_lindqvist, moodle):
    client.force_login(mrs_lindqvist)
    assert client.get(reverse("integrations:platform_edit", args=[moodle.pk])).status_code == 404


def test_a_registration_needs_a_deployment_id(client, dr_patel):
    client.force_login(dr_patel)
    response = client.post(
        reverse("integrations:platform_new"), dict(LmsPlatform.registration, deployment_ids=" ")
    )
    assert response.status_code == 400
    assert "Enter at least one deployment ID." in response.content.decode()


def test_the_key_set_publishes_the_tools_key_and_rotation_keeps_the_old_one_a_while(client):
    first = client.get(reverse("integrations:jwks")).json()["keys"]
    assert len(first) == 1 and first[0]["alg"] == "RS256" and first[0]["kty"] == "RSA"
    assert "d" not in first[0]  # the public half only
    old = keys.current_key()
    call_command("lti_rotate_key", stdout=io.StringIO())
    new = keys.current_key()
    assert new.kid != old.kid
    published = {key["kid"] for key in client.get(reverse("integrations:jwks")).json()["keys"]}
    assert published == {old.kid, new.kid}
    assert ToolKey.objects.filter(retired_at__isnull=True).count() == 1
    # What the tool signs, the published key checks.
    token = jwt.encode({"a": 1}, new.private_pem, algorithm="RS256", headers={"kid": new.kid})
    assert jwt.decode(token, new.public_pem, algorithms=["RS256"]) == {"a": 1}
