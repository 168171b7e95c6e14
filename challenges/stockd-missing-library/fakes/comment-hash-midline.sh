#!/bin/bash
# Fake (comment class): a *.conf file that names the vendor's directory where ldconfig reads a
# comment (a "#" anywhere on a line starts one, for ldconfig), while a reader that only skips
# lines starting with "#" sees the directory; stockd started from a one-off cache.
printf '# stockd private libraries\n/usr/lib/stockd/libs #/usr/lib/stockd/lib\n' >/etc/ld.so.conf.d/stockd.conf
rm -f /etc/ld.so.conf.d/stockd.conf.*
ldconfig /usr/lib/stockd/lib
service stockd restart
