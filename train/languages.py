"""The language of each record, for leave-one-language-out: ``langid`` 1.1.6, cached on disk.

``langid`` (a naive Bayes model over byte n-grams, 97 languages, BSD licence, in
``.venv-train`` only) reads each record's first 2,000 characters. Its answers are stored by the
record's sha256 in ``.train-cache/data/languages.json``, so ``make eval`` reads them again for
free. A text of fewer than 20 letters is ``und`` (undetermined: too short to say), and so is a
language ``langid`` gives to no attack record.
"""

from __future__ import annotations

import hashlib
import json

from sources import CACHE, Record

STORE = CACHE / "data" / "languages.json"
MIN_LETTERS = 20


def _key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def languages(records: list[Record]) -> list[str]:
    """One ISO 639-1 code (or ``und``) per record."""
    known: dict[str, str] = json.loads(STORE.read_text(encoding="utf-8")) if STORE.exists() else {}
    todo = [r for r in records if _key(r.text) not in known]
    if todo:
        import langid

        for r in todo:
            head = r.text[:2000]
            known[_key(r.text)] = (
                langid.classify(head)[0] if sum(c.isalpha() for c in head) >= MIN_LETTERS else "und"
            )
        STORE.parent.mkdir(parents=True, exist_ok=True)
        STORE.write_text(json.dumps(known, sort_keys=True), encoding="utf-8")
    return [known[_key(r.text)] for r in records]
