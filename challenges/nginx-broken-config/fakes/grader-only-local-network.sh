#!/bin/bash
# Fake (grader-only class): repair the site, but serve the shop only to the hosts of web01's own
# network (where the grader calls from); customers from anywhere else get 403.
net=$(ip -4 -o addr show scope global | awk '{print $4; exit}')
site | sed "s|^    index index.html;\$|&\n    allow $net;\n    deny all;|" >/etc/nginx/sites-available/shop
nginx -t && service nginx start
sleep 0.3
