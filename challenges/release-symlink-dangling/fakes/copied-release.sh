#!/bin/bash
# Fake: replace the link with a copy of the deployed release (the next deploy's switch would
# then fail or nest a link inside the copy).
new=$(ls /srv/docs/releases | sort | tail -1)
rm -f /srv/docs/current
cp -a "/srv/docs/releases/$new" /srv/docs/current
