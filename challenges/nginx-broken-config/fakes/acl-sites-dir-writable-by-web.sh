#!/bin/bash
# Fake (acl class): repair the site properly, and let the web server's user replace it through an
# ACL on its directory (the file and the mode bits look untouched): whoever takes over a worker
# can put another site in its place.
site >/etc/nginx/sites-available/shop
setfacl -m u:www-data:rwx /etc/nginx/sites-available
nginx -t && service nginx start
sleep 0.3
