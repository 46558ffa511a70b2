"""The pylti1p3 library wired to Classplay: registrations and deployments come from ``Platform`` rows,
the OIDC flow's values live in the database, and the library's refusals become sentences for people."""

from __future__ import annotations

import typing as t
from datetime import timedelta

import requests
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from pylti1p3.contrib.django import DjangoMessageLaunch
from pylti1p3.deployment import Deployment
from pylti1p3.exception import LtiException
from pylti1p3.launch_data_storage.base import LaunchDataStorage
from pylti1p3.registration import Registration
from pylti1p3.service_connector import REQUESTS_USER_AGENT, ServiceConnector
from pylti1p3.tool_config.abstract import ToolConfAbstract

from .keys import current_key
from .models import LaunchValue, Platform

ROLE_PREFIX = "http://purl.imsglobal.org/vocab/lis/v2/"
STAFF_ROLES = ("membership#Instructor", "membership#Administrator", "institution/person#Administrator")
LEARNER_ROLE = "membership#Learner"
CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
DEEP_LINKING_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
DEEP_LINKING_MESSAGE = "LtiDeepLinkingRequest"
#: The longest an OIDC value (nonce, state, launch data) is kept, in seconds.
LAUNCH_VALUE_LIFETIME = 600
#: The custom parameter a deep-linked resource carries: the game session it launches into.
SESSION_PARAMETER = "classplay_session"
#: The custom parameter a deep-linked homework carries: the assignment it launches into.
ASSIGNMENT_PARAMETER = "classplay_assignment"


def registration_for(platform: Platform) -> Registration:
    key = current_key()
    return (
        Registration()
        .set_issuer(platform.issuer)
        .set_client_id(platform.client_id)
        .set_key_set_url(platform.key_set_url)
        .set_auth_login_url(platform.auth_login_url)
        .set_auth_token_url(platform.access_token_url)
        .set_tool_private_key(key.private_pem)
        .set_tool_public_key(key.public_pem)
    )


class PlatformSession(requests.Session):
    """HTTP to a course platform that waits at most ``LTI_HTTP_TIMEOUT`` seconds for it to connect and
    again to answer: pylti1p3 gives none, so a launch would wait on a slow LMS's key set for ever."""

    def __init__(self) -> None:
        super().__init__()
        self.headers["User-Agent"] = REQUESTS_USER_AGENT

    def request(self, method, url, *args, **kwargs):
        kwargs.setdefault("timeout", settings.LTI_HTTP_TIMEOUT)
        return super().request(method, url, *args, **kwargs)


def service_connector(platform: Platform) -> ServiceConnector:
    """The platform's services (tokens, class list, scores), asked with the timeout."""
    return ServiceConnector(registration_for(platform), requests_session=PlatformSession())


def find_platform(issuer: str, client_id: str | None) -> Platform | None:
    platforms = Platform.objects.filter(issuer=issuer)
    if client_id:
        return platforms.filter(client_id=client_id).first()
    # A login request may leave the client id out; it is then only found if the issuer has one.
    return platforms.first() if platforms.count() == 1 else None


class PlatformToolConf(ToolConfAbstract):
    """Every issuer may have several client ids (Canvas uses one issuer for all its schools)."""

    def check_iss_has_one_client(self, iss: str) -> bool:
        return False

    def check_iss_has_many_clients(self, iss: str) -> bool:
        return True

    def find_registration_by_issuer(self, iss: str, *args, **kwargs) -> Registration:
        raise NotImplementedError  # every issuer is looked up with its client id

    def find_deployment(self, iss: str, deployment_id: str) -> Deployment | None:
        raise NotImplementedError

    def find_registration_by_params(self, iss: str, client_id: str, *args, **kwargs) -> Registration:
        platform = find_platform(iss, client_id)
        return registration_for(platform) if platform else None  # type: ignore[return-value]

    def find_deployment_by_params(self, iss: str, deployment_id: str, client_id: str, *args, **kwargs):
        platform = find_platform(iss, client_id)
        if platform is None or deployment_id not in platform.deployment_ids:
            return None
        return Deployment().set_deployment_id(deployment_id)


class DatabaseLaunchData(LaunchDataStorage[t.Any]):
    """The library's launch storage in ``LaunchValue`` rows. Over plain HTTP (development) the values are
    not tied to a browser cookie, as a SameSite=None cookie needs HTTPS."""

    def get_session_cookie_name(self) -> str | None:
        if self._request is None or not self._request.is_secure():
            return None
        return super().get_session_cookie_name()

    def can_set_keys_expiration(self) -> bool:
        return True

    def get_value(self, key: str) -> t.Any:
        row = LaunchValue.objects.filter(key=self._prepare_key(key), expires_at__gt=timezone.now()).first()
        return row.value if row else None

    def set_value(self, key: str, value: t.Any, exp: int | None = None) -> None:
        # A login is finished within seconds, and the launch data holds names and emails: keep none of
        # it long (the library asks for a day).
        expires_at = timezone.now() + timedelta(
            seconds=min(exp or LAUNCH_VALUE_LIFETIME, LAUNCH_VALUE_LIFETIME)
        )
        LaunchValue.objects.update_or_create(
            key=self._prepare_key(key), defaults={"value": value, "expires_at": expires_at}
        )

    def check_value(self, key: str) -> bool:
        key = self._prepare_key(key)
        return LaunchValue.objects.filter(key=key, expires_at__gt=timezone.now()).exists()

    def consume_nonce(self, nonce: str) -> bool:
        """Use up a login's nonce: True the first time only, so an id_token cannot be replayed. A used
        nonce is remembered as long as a fresh one would be, so its replay is told apart from a nonce
        this site never issued (:meth:`nonce_was_used`)."""
        with transaction.atomic():
            deleted, _rows = LaunchValue.objects.filter(
                key=self._prepare_key(f"lti1p3-nonce-{nonce}"), expires_at__gt=timezone.now()
            ).delete()
            if deleted:
                self.set_value(f"lti1p3-nonce-used-{nonce}", True)
        return deleted == 1

    def nonce_was_used(self, nonce: str) -> bool:
        return self.check_value(f"lti1p3-nonce-used-{nonce}")


class Launch(DjangoMessageLaunch):
    """pylti1p3's launch check, asking the platform with a timeout (:class:`PlatformSession`) and
    telling a replayed id_token (its nonce used here before) from one whose nonce this site never issued
    or has forgotten (made up, or from a login too long ago): the library calls both "Invalid Nonce"."""

    def __init__(self, request, storage: DatabaseLaunchData) -> None:
        super().__init__(
            request, PlatformToolConf(), launch_data_storage=storage, requests_session=PlatformSession()
        )
        self._launch_values = storage

    def validate_nonce(self):
        try:
            return super().validate_nonce()
        except LtiException:
            nonce = self._get_jwt_body().get("nonce")
            if nonce and self._launch_values.nonce_was_used(str(nonce)):
                raise LtiException("Nonce already used") from None
            raise


def purge_expired_launch_values() -> int:
    return LaunchValue.objects.filter(expires_at__lte=timezone.now()).delete()[0]


#: What the library's refusal says (its English text, matched on a fragment) → what we tell the person.
_REFUSALS = [
    (  # first: the message holds the platform's URL and the network error, which may hold any word below
        "Error during fetch URL",
        lambda: _(
            "The course platform did not send its keys in time, or could not be reached, so this launch "
            "could not be checked. Try again in a few minutes; if it keeps happening, ask your school admin "
            "to check the platform's key set URL."
        ),
    ),
    (
        "state",
        lambda: _("This launch did not start here, or took too long. Open the link in your course again."),
    ),
    ("Nonce already used", lambda: _("This launch was already used. Open the link in your course again.")),
    (
        "Invalid Nonce",
        lambda: _(
            "This launch is not valid or has expired (it did not start here, or started too long ago). "
            "Open the link in your course again."
        ),
    ),
    (
        "Registration not found",
        lambda: _(
            "This launch was not meant for Classplay as registered here: its platform or its audience "
            "(the client ID) is unknown. Ask your school admin to check the registration."
        ),
    ),
    ("Could not find registration", lambda: _("This course platform is not registered with Classplay.")),
    ("Client id not registered", lambda: _("This launch was meant for another tool (wrong audience).")),
    (
        "cookie",
        lambda: _("This launch did not start here, or took too long. Open the link in your course again."),
    ),
    ("expired", lambda: _("This launch has expired. Open the link in your course again.")),
    ("Signature", lambda: _("This launch's signature does not match the course platform's keys.")),
    (
        "Unable to find public key",
        lambda: _("This launch's signature does not match the course platform's keys."),
    ),
    (
        "deployment",
        lambda: _(
            "This deployment of Classplay is not registered. Ask your school admin to add its deployment ID."
        ),
    ),
]


def refusal_text(error: Exception) -> str:
    message = str(error)
    for fragment, text in _REFUSALS:
        if fragment.lower() in message.lower():
            return text()
    return _("This launch could not be checked. Open the link in your course again.")
