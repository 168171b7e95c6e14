#!/bin/bash
# Fake: "hand the tool over to the build account" instead of editing its mode: chown builder:builder
# (which clears the set-id bits, as chown does). No set-id program is left and everybody can still
# run every tool, but builder now owns a program that the backup jobs run as root: it can rewrite
# it (or give it a set-id bit of its own) and have root run whatever it likes.
for f in $(unowned_setid); do chown builder:builder "$f"; ls -l "$f"; done
