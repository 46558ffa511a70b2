"""A trip's news goes to the channel layer in one call for all its groups; should that call fail, each
news is kept and sent again on its own once the layer may be asked again."""

import pytest

from games import broadcast, outbox


class Layer:
    def __init__(self, fail: bool = False):
        self.fail, self.batches, self.singles = fail, [], []

    async def group_send_many(self, sends):
        if self.fail:
            raise ConnectionRefusedError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        self.batches.append(list(sends))

    async def group_send(self, group, message):
        self.singles.append((group, message))


@pytest.fixture
def layer(monkeypatch):
    outbox.reset()
    made = Layer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: made)
    yield made
    outbox.reset()


def _collection(count: int) -> broadcast.Collected:
    collection = broadcast.Collected()
    for table in range(1, count + 1):
        message = {"type": "table.changed", "table": table, "seq": 1}
        collection.add(broadcast.session_group(table), message, ("news", table))
    return collection


async def test_a_trips_news_to_several_groups_goes_in_one_call(layer):
    await broadcast.send_collected(_collection(3))
    assert layer.batches == [
        [
            (broadcast.session_group(table), {"type": "table.changed", "table": table, "seq": 1}, None)
            for table in (1, 2, 3)
        ]
    ]
    assert layer.singles == []


async def test_news_this_processs_hub_already_has_is_not_sent_to_it(layer):
    await broadcast.send_collected(_collection(2), {("news", 2): "specific.hub"})
    assert [told for _group, _message, told in layer.batches[0]] == [None, "specific.hub"]


async def test_news_the_layer_could_not_take_is_each_kept_to_be_sent_again(layer, monkeypatch):
    kept = []
    monkeypatch.setattr(outbox, "_resend_later", lambda service, key, call: kept.append((service, key)))
    layer.fail = True
    await broadcast.send_collected(_collection(3))
    assert outbox.is_down(broadcast.SERVICE)
    assert sorted(kept) == [(broadcast.SERVICE, ("news", table)) for table in (1, 2, 3)]
    # While it is down, the next trip's news is not tried, only kept.
    layer.fail = False
    await broadcast.send_collected(_collection(1))
    assert layer.batches == [] and len(kept) == 4
