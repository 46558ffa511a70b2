from classrooms.text import tidy_sentence


def test_a_name_ending_in_an_initial_ends_the_sentence_with_one_full_stop():
    assert tidy_sentence("Rivera removed Bruno G..") == "Rivera removed Bruno G."
    assert tidy_sentence("New sign-in code for Aisha K.. Print a new login card.") == (
        "New sign-in code for Aisha K. Print a new login card."
    )


def test_an_ellipsis_and_ordinary_sentences_stay_as_they_are():
    assert tidy_sentence("Wait for it...") == "Wait for it..."
    assert tidy_sentence("Reconnecting… Your answers are kept.") == "Reconnecting… Your answers are kept."


def test_names_lose_invisible_characters_that_reorder_or_hide_text():
    from classrooms.roster import clean_name

    assert clean_name("Ava\u202eM.") == "AvaM."  # a right-to-left override
    assert clean_name("Ava\u200b M.") == "Ava M."  # a zero-width space
    assert clean_name("Ava\u200dM.") == "AvaM."  # a joiner between Latin letters hides nothing useful
    assert clean_name("Bruno \u2066G.\u2069") == "Bruno G."  # an isolate
    assert clean_name("7\x85B") == "7B"  # a C1 control character
    assert (
        clean_name("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645")
        == "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
    )
