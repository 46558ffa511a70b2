"""The tool's RSA key pair: made on first need, rotated by ``manage.py lti_rotate_key``."""

from __future__ import annotations

from datetime import timedelta

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from django.db import transaction
from django.utils import timezone
from pylti1p3.registration import Registration

from .models import ToolKey

#: How long a retired key stays in the published key set (platforms cache key sets for hours).
RETIRED_KEY_PUBLISHED = timedelta(days=7)


def _new_key() -> ToolKey:
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private_pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public_pem = (
        private.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    kid = Registration.get_jwk(public_pem)["kid"]
    return ToolKey.objects.create(kid=kid, private_pem=private_pem, public_pem=public_pem)


def current_key() -> ToolKey:
    key = ToolKey.objects.filter(retired_at__isnull=True).first()
    if key is not None:
        return key
    with transaction.atomic():
        # One key even when two first requests race: the later waits on the lock, then finds the key.
        list(ToolKey.objects.select_for_update().all())
        return ToolKey.objects.filter(retired_at__isnull=True).first() or _new_key()


@transaction.atomic
def rotate_key() -> ToolKey:
    """A new signing key; the old ones retire but stay published for ``RETIRED_KEY_PUBLISHED``."""
    ToolKey.objects.filter(retired_at__isnull=True).update(retired_at=timezone.now())
    ToolKey.objects.filter(retired_at__lt=timezone.now() - RETIRED_KEY_PUBLISHED).delete()
    return _new_key()


def public_key_set() -> dict:
    current_key()
    published = ToolKey.objects.exclude(retired_at__lt=timezone.now() - RETIRED_KEY_PUBLISHED)
    return {"keys": [Registration.get_jwk(key.public_pem) for key in published]}
