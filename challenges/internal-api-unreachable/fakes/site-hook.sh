#!/bin/bash
# Fake: the service started the usual way, but with a Python start-up hook from the writable
# /usr/local that answers for it (and a service script that lets Python read it).
service inventory-api stop >/dev/null 2>&1 || true
pkill -f 'http.server 8080' || true; pkill -f 'nc -dlk 8080' || true
dir=$(python3 -c 'import site; print(site.getsitepackages()[0])')
mkdir -p "$dir"
printf 'import os; os.environ.get("FL_NEVER") or None\n' >"$dir/zz_hook.py"
echo 'import zz_hook' >"$dir/zz_hook.pth"
sed -i 's/-- -I -S "\$script"/-- "$script"/' /etc/init.d/inventory-api
sed -i -e 's/^bind *=.*/bind = 0.0.0.0/' -e 's/^port *=.*/port = 8080/' -e 's/^allowed_networks *=.*/allowed_networks =/' /etc/inventory-api/api.conf
service inventory-api start
