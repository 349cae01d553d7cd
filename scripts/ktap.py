#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A KTAP document as TAP lines, one per test at every level, read by the
kernel's own parser (tools/testing/kunit/kunit_parser.py).

Usage: ktap.py KUNIT_DIR PREFIX <KTAP >TAP 2>PARSER_OUTPUT

A test's line is "ok - PREFIX: NAME: SUBNAME..." or "not ok - ...": not
ok unless it passed (a skip is not ok: nothing skipped is done).  A test
with subtests is judged by its own result line, its subtests by theirs.
A failed test's diagnostics, as the parser kept them, follow its line.
The last line judges the document: the parser found it, met no error,
and every test its plans promised came.  The parser's own report goes
to stderr.
"""
import contextlib
import sys

sys.path.insert(0, sys.argv[1])
with contextlib.redirect_stdout(sys.stderr):
    # kunit_printer keeps the stdout of the time it is imported
    import kunit_parser
from kunit_parser import TestStatus

HEADER = 'selftests: varlink: '   # the kselftest runner's name of a program


def walk(test, path):
    for sub in test.subtests:
        name = sub.name[len(HEADER):] if sub.name.startswith(HEADER) else sub.name
        here = path + [name or '(no name)']
        ok = sub.status == TestStatus.SUCCESS
        print(f"{'ok' if ok else 'not ok'} - {': '.join(here)}")
        if not ok:
            for line in sub.log[-40:]:
                print(f'# {line.strip()}')
        walk(sub, here)


with contextlib.redirect_stdout(sys.stderr):
    main = kunit_parser.parse_run_tests(sys.stdin)
walk(main, [sys.argv[2]])
ok = main.status == TestStatus.SUCCESS and main.counts.errors == 0
print(f"{'ok' if ok else 'not ok'} - {sys.argv[2]}: every test planned came, "
      f"and kunit.py parse met no error ({main.status.name}, "
      f"{main.counts.errors} errors)")
sys.exit(0 if ok else 1)
