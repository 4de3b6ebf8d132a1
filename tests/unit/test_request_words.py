"""When the rules judge takes a word of the request to be touched by the output."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qgs_worker.judges.request_words import (
    OPERATION_CLASSES,
    WORD,
    base_form,
    content_words,
    matches,
    tokens,
    word_runs,
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


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=120))
def test_ascii_words_are_findall_runs(text: str) -> None:
    """An ASCII text's words are split by a byte table: the runs ``findall`` gives, every byte."""
    assert word_runs(text) == len(WORD.findall(text))
    assert tokens(text) == re.findall(r"[^\W_]+", text.lower())


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["remov", "removing", "dele", "delete_all", "file", "files", "x"])),
    st.sampled_from(["remove", "deleted", "file", "fil", "filesystem", "删除"]),
)
def test_prefix_index_matches_as_the_token_scan(output: list[str], word: str) -> None:
    """``Words.by_prefix`` finds what a scan of every token for a shared 4+ prefix found."""
    words = words_of(" ".join(output))
    scanned = len(word) >= 4 and any(
        len(s) >= 4 and (s.startswith(word) or word.startswith(s))
        for s in words.tokens
        if s[:4] == word[:4]
    )
    indexed = len(word) >= 4 and any(
        s.startswith(word) or word.startswith(s) for s in words.by_prefix.get(word[:4], ())
    )
    assert scanned == indexed
