"""The Python examples of README.md and docs/python.md marked
<!-- run by unit_tests/python/test_docs.py --> run as written."""

import os
import re

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
MARK = "<!-- run by unit_tests/python/test_docs.py -->\n```python\n"


def blocks():
    found = []
    for name in ("README.md", os.path.join("docs", "python.md")):
        with open(os.path.join(ROOT, name)) as f:
            text = f.read()
        for i, match in enumerate(re.finditer(re.escape(MARK) + r"(.*?)```", text, re.S)):
            found.append(pytest.param(match.group(1), id="%s-%d" % (name, i)))
    return found


@pytest.mark.parametrize("code", blocks())
def test_example_runs(code):
    exec(compile(code, "<example>", "exec"), {})


def test_examples_found():
    assert len(blocks()) >= 2
