# The attacks through an LMS use the integrations tests' fake platform (a course's LMS and its registration).
from tests.integrations.conftest import lms, moodle  # noqa: F401
