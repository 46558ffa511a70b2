"""Between tests, Channels' database clean-up is put back (its test communicator can leave a no-op)."""

from unittest import mock

import channels.db
import django.db

from tests.conftest import _channels_closes_connections_again


def test_overlapping_patches_leave_the_no_op_and_the_suite_puts_the_real_one_back():
    first = mock.patch("channels.db.close_old_connections", lambda: None)
    second = mock.patch("channels.db.close_old_connections", lambda: None)
    first.start()
    second.start()
    first.stop()  # out of order, as two communicators' sends awaited together do
    second.stop()
    assert channels.db.close_old_connections is not django.db.close_old_connections
    _channels_closes_connections_again()
    assert channels.db.close_old_connections is django.db.close_old_connections
