#!/usr/bin/env python3
"""The example oracle plus a ledger, for the study crash test (bench/study_crash.cpp).

    python3 experiments/crash_test_oracle.py LEDGER [example_oracle.py arguments...]

Runs experiments/example_oracle.py's computation and, once it has finished and just before it
prints its result, appends "seed lr epochs noise" to LEDGER, so the crash test knows every
evaluation the oracle completed, even those whose dpareto process was killed before recording them.
"""
import contextlib
import io
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import example_oracle  # noqa: E402


def main():
    ledger, args = sys.argv[1], sys.argv[2:]
    sys.argv = [sys.argv[0]] + args
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = example_oracle.main()
    values = dict(zip(args[0::2], args[1::2]))
    with open(ledger, "a") as f:
        f.write(" ".join(values.get(k, "?") for k in ("--seed", "--lr", "--epochs", "--noise")) + "\n")
        f.flush()
        os.fsync(f.fileno())
    sys.stdout.write(out.getvalue())
    return status


if __name__ == "__main__":
    sys.exit(main())
