"""When the rules judge takes a word of the request to be touched by the output."""

from __future__ import annotations

import pytest

from qgs_worker.judges.request_words import (
    OPERATION_CLASSES,
    base_form,
    content_words,
    matches,
    words_of,
)


@pytest.mark.parametrize(
    ("word", "base"),
    [
        # Porter (1980) step 1a / 1b examples, then the final e
        ("caresses", "caress"),
        ("ponies", "poni"),
        ("cats", "cat"),
        ("removing", "remov"),
        ("remove", "remov"),
        ("deleted", "delet"),
        ("messages", "messag"),
        ("stopped", "stop"),
        ("falling", "fall"),
        ("status", "status"),
        ("access", "access"),
        ("sing", "sing"),  # no vowel before -ing: not an inflection
        ("bed", "bed"),
        ("删除", "删除"),
    ],
)
def test_base_form(word: str, base: str) -> None:
    assert base_form(word) == base


@pytest.mark.parametrize(
    ("word", "output"),
    [
        ("files", "ls files"),  # equal
        ("deploy", "deployment done"),  # prefix of 4+
        ("removing", "remove_item(id=3)"),  # base form
        ("messages", "view_message"),
        # operation classes (PowerShell approved verbs: Remove's synonyms, Show's, Stop's, Get's)
        ("removing", 'delete_message({"receiver_id": "USR002"})'),
        ("erase", "remove_file"),
        ("display", "show_messages"),
        ("cancel", "stop_job"),
        ("fetch", "fetch_invoice"),
        ("find", "get_user_id"),
        ("删除", "删除文件"),  # CJK bigram
    ],
)
def test_matches(word: str, output: str) -> None:
    assert matches(word, words_of(output))


@pytest.mark.parametrize(
    ("word", "output"),
    [
        ("removing", "send_message"),
        ("delete", "create_file"),
        ("move", 'cat({"file_name": "notes"})'),  # "name" is left out of Move's synonyms
        ("transfer", 'ls({"type": "dir"})'),
        ("cat", "category"),  # prefix rule needs 4+ characters
        ("删除", "删掉"),
    ],
)
def test_look_alikes_do_not_match(word: str, output: str) -> None:
    assert not matches(word, words_of(output))


def test_left_out_argument_nouns_are_in_no_class() -> None:
    for noun in ("name", "type", "dir", "cat", "in", "out", "input", "output", "object"):
        assert base_form(noun) not in OPERATION_CLASSES, noun


def test_content_words_drop_stop_and_instruction_words() -> None:
    assert content_words("Please write an article about the 2 files of Bob's") == [
        "files",
        "bob",
    ]
    assert content_words("请帮我删除这个文件") == [
        "删除",
        "文件",
    ]  # 这 and 个 are function characters
