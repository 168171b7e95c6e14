#!/bin/bash
# Fake (boot class): leave the broken site where it is, put a working copy in /run and point the
# site's name at it. nginx serves the shop now; /run is empty after a reboot, and nginx with it.
cp /etc/nginx/sites-available/shop /root/shop.broken
site | grep -v '^#\|^$' >/run/shop.conf
ln -sf /run/shop.conf /etc/nginx/sites-available/shop
nginx -t && service nginx start
sleep 0.3
