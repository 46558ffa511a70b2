"""The embedded broker never hands the worker a message that is still being written."""

import os

import pytest
from django.conf import settings
from kombu import Connection
from kombu.transport.virtual import Empty

import config.celery_broker
from config.celery import app


@pytest.fixture
def channel(tmp_path):
    folders = {"data_folder_in": str(tmp_path), "data_folder_out": str(tmp_path)}
    connection = Connection(
        "filesystem://localhost//", transport=config.celery_broker.Transport, transport_options=folders
    )
    channel = connection.channel()
    yield channel
    connection.release()


def test_a_message_is_seen_only_once_it_is_whole(channel, tmp_path, monkeypatch):
    """Kombu's own transport wrote into the message's final file: a worker that read it in between got
    an empty message, and its JSON error stopped the worker for good."""
    seen_while_writing = []
    rename = os.replace

    def replace(source, destination):
        with pytest.raises(Empty):  # written, not yet renamed: the consumer passes it by
            channel._get("celery")
        seen_while_writing.append(os.listdir(tmp_path))
        rename(source, destination)

    monkeypatch.setattr(config.celery_broker.os, "replace", replace)
    channel._put("celery", {"body": "facts of table 7"})
    assert seen_while_writing == [[next(iter(seen_while_writing[0]))]]
    assert seen_while_writing[0][0].endswith(".celery.msg" + config.celery_broker.PARTIAL)
    assert channel._get("celery") == {"body": "facts of table 7"}
    assert os.listdir(tmp_path) == []


def test_the_embedded_worker_and_server_use_it():
    if settings.REDIS_URL:
        pytest.skip("with REDIS_URL the broker is Redis")
    with app.connection_for_write() as connection:
        assert isinstance(connection.transport, config.celery_broker.Transport)
