#!/bin/bash
# Fake: the real shorturl started the usual way but as root, who may write anything: the
# permission problem is not fixed, only stepped over.
sed -i 's/^user=shorturl/user=root/' /etc/init.d/shorturl
service shorturl start
sleep 0.5
