#!/bin/bash
# Grading: runs in a short-lived grader container on the deployment's network (check.runs_in:
# probe), never inside the user's container. It sees web01 from outside, the way a customer
# does. Environment: FL_TARGET (the deployment's host name), FL_BUILD (the page's build id
# chosen by setup.sh). Exit 0 = fixed; stdout = feedback for the user.
set -u
url="http://${FL_TARGET}/"
headers=$(mktemp)
if ! body=$(curl -sS --max-time 5 -D "$headers" "$url" 2>&1); then
  echo "Nothing answers at $url yet (${body#curl: }). Is nginx running?"
  exit 1
fi
status=$(awk 'NR==1{print $2}' "$headers")
if [ "$status" != 200 ]; then
  echo "$url answers with HTTP $status instead of 200: the shop's page is not served."
  exit 1
fi
if ! grep -qi '^server: nginx' "$headers"; then
  echo "Something answers on port 80, but it is not nginx."
  exit 1
fi
if ! grep -q "$FL_BUILD" <<<"$body"; then
  echo "nginx answers, but not with the shop's page from /srv/www/shop."
  exit 1
fi
echo "nginx is up and serves the shop at $url."
