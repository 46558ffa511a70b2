import pytest
import responses

from integrations.models import Platform

from .platform import DEPLOYMENT_ID, LmsPlatform


@pytest.fixture
def lms():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        yield LmsPlatform(mock)


@pytest.fixture
def moodle(riverside, lms):
    """Riverside's Moodle, registered by its school admin."""
    fields = dict(LmsPlatform.registration, deployment_ids=[DEPLOYMENT_ID])
    return Platform.objects.create(school=riverside, **fields)
