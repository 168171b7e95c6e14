# fl: the grader's view of a target, for check.sh (docs/decisions/008-grading-threat-model.md).
# One program in several files, one concern each, joined in name order into /tmp/fl.py by the
# platform (server/runtime/scenario.ts, flProgram): the checks run and import that.
#
#
# Runs in the grader container: the challenge's read-only image (the platform's binaries, its own
# /etc, /usr/local and loader cache), started with `python3 -I -S` (no site hooks, no PYTHON*
# variables), in the host's PID namespace, where the target cannot see it. FL_TARGET_PID names
# the target's init by its host PID: /proc/<it>/root is the target's filesystem, /proc/<it>/net
# its sockets, and the target's processes are those in its PID namespace. Nothing here executes
# a file of the target.
#
# Rules that make it trustworthy against a root user inside the target:
# - Paths are resolved by hand, one component at a time with O_NOFOLLOW below a descriptor of the
#   target's root: an absolute symlink resolves inside the target (never to the grader's own
#   pristine files) and ".." never climbs out of it.
# - A process is "the real service" when its executable and every file it maps come from the
#   target's read-only root filesystem (same device as the root), its arguments are the expected
#   ones, its environment names no loader or interpreter hook, and the configuration it read at
#   start has not changed since (ctime, which a root user cannot set back, against start time).
# - Anything unexpected fails: exit 1 with one honest line for the user.
import errno
import hashlib
import json
import os
import re
import stat
import sys
import time

TARGET_PID = int(os.environ.get("FL_TARGET_PID", "1"))
TARGET_ROOT = f"/proc/{TARGET_PID}/root"
TARGET_NET = f"/proc/{TARGET_PID}/net"
# What `read` prints into a check's variable; streaming commands (sha256, contains, pristine) read
# every byte whatever the size.
MAX_READ = 4 * 1024 * 1024
# A configuration changed this long after a process started was changed after it read it. Start
# times are whole kernel ticks (10 ms, rounded down) and file times come from the coarse clock
# (a few ms behind): an honest edit-then-restart never lands above this margin.
CTIME_MARGIN = 0.05
# Variables that make a loader, a shell or an interpreter run code of the user's choosing.
HOOK_ENV = re.compile(
    rb"^(LD_[A-Z_]+|BASH_ENV|ENV|BASH_FUNC_.*|SHELLOPTS|BASHOPTS|PS4|PYTHON[A-Z_]*|PERL5[A-Z_]*|PERLLIB|RUBY[A-Z_]*"
    rb"|NODE_OPTIONS|NODE_PATH|GCONV_PATH|LOCPATH|NLSPATH|MALLOC_[A-Z_]+|GLIBC_TUNABLES|HOSTALIASES|LOCALDOMAIN|RES_OPTIONS)="
)


# How the kernel names shared anonymous memory in maps (nginx's shared zones): no file behind it.
SHARED_ANONYMOUS = {"/dev/zero (deleted)", "/SYSV00000000 (deleted)"}


class Refused(Exception):
    """Grading cannot go on: the message is shown to the user."""




class verdict:
    """`with fl.verdict("The grader could not look at X"):` around a check's judgement, in a check
    that reads its verdict from the output: prints "ok" when the judgement ends, its refusal when
    it refuses, and "The grader could not look at X (why)." when a file cannot be read."""

    def __init__(self, unreadable):
        self.unreadable = unreadable

    def __enter__(self):
        return self

    def __exit__(self, kind, e, tb):
        if kind is None:
            print("ok")
        elif issubclass(kind, Refused):
            print(e)
        elif issubclass(kind, OSError):
            print(f"{self.unreadable} ({e.strerror}).")
        else:
            return False
        return True
